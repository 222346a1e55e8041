/**
 * The fact classifier: every statement counts, however it is phrased; questions, requests, commands,
 * fillers and code do not. Sentence by sentence, in English and Chinese.
 */
import assert from "node:assert/strict";
import { classifyUnit, statedFacts, statementUnits, statesFact } from "../../src/agent/fact_statements.ts";

const FACTS_EN = [
  "Deploy target: staging-eu",
  "The CI runs on Buildkite.",
  "Port: 5433",
  "We use pnpm, never npm.",
  "My name is Ada.",
  "Test coverage is 80%.",
  "Build times are slow on CI.",
  "Log retention in days is 30",
  "Release branch is release/2.4",
  "The timeout is 30s.",
  "Also, the staging DB is Postgres 15.",
  "I'm the on-call engineer this week.",
  "Will is on call this week.",
  "I prefer short answers.",
  "Our staging URL: https://staging.example.com",
  "The API uses REST, e.g. /v1/users.",
  "Production lives in eu-west-1",
  "Never push to main.",
  "Use tabs, not spaces.",
  "Please remember we deploy on Fridays.",
  "Note: run lint before pushing",
  "Remember this: the staging database port is value-7919-21.",
  "- owner of billing: Priya",
  "2. The docs site uses Inter",
  "This repo targets Deno 2 only.",
  "Reply in Chinese from now on.",
  "Don't use any external libraries.",
  "Our team works in Berlin.",
  "src/foo.ts line 40 throws",
];

const NOT_FACTS_EN: [string, string][] = [
  ["Step 12: add a test for X", "request"],
  ["Step 300: continue the refactor with module 300.", "request"],
  ["TODO: fix the flaky test", "request"],
  ["please fix the build", "request"],
  ["run the tests", "request"],
  ["Check that the build is green", "request"],
  ["Update the docs", "request"],
  ["Set the timeout to 30s", "request"],
  ["Now run the tests.", "request"],
  ["Let's refactor the parser", "request"],
  ["say alpha a lot", "request"],
  ["See https://example.com for details", "request"],
  ["Add a test for the parser, the parser lives in src/parse.ts.", "request"],
  ["what does X do?", "question"],
  ["what is in big.txt?", "question"],
  ["Is the port 5433", "question"],
  ["Can you look at the logs", "question"],
  ["why is this slow", "question"],
  ["ok thanks", "other"],
  ["Thanks, that works.", "other"],
  ["Done.", "other"],
  ["this one fails", "other"],
  ["It is slow.", "other"],
  ["looks good, ship it", "request"],
  ["do the same for bar.ts", "request"],
  ["I'd like a CLI flag for it", "request"],
  ["also handle the empty case", "request"],
  ["Could we add caching", "question"],
  ["yes", "other"],
  ["---", "other"],
];

const FACTS_ZH = [
  "我们用 pnpm",
  "我们的项目用 pnpm，不要用 npm。",
  "数据库在 db-3 上，端口 5433",
  "部署目标是 staging-eu",
  "生产数据库在 eu-west-1。",
  "我们的 CI 跑在 Buildkite 上",
  "以后都用 tabs",
  "不要修改 legacy 目录",
  "测试覆盖率是 80%",
  "注意：先运行 lint 再推送",
  "发布分支：release/2.4",
];

const NOT_FACTS_ZH: [string, string][] = [
  ["继续", "request"],
  ["运行测试", "request"],
  ["请修复构建", "request"],
  ["第12步：添加测试", "request"],
  ["帮我看看这个错误", "request"],
  ["把日志级别改成 debug", "request"],
  ["这个文件是做什么的？", "question"],
  ["测试通过了吗", "question"],
  ["为什么构建这么慢", "question"],
  ["好的", "other"],
  ["好的，谢谢", "other"],
  ["收到", "other"],
  ["这个不对", "other"],
  ["先改 README", "request"],
  ["再试一次", "request"],
  ["然后处理空的情况", "request"],
];

Deno.test("classifyUnit() counts English statements as facts, however they are phrased", () => {
  for (const text of FACTS_EN) assert.equal(classifyUnit(text), "fact", text);
});

Deno.test("classifyUnit() does not count English requests, commands, questions or fillers", () => {
  for (const [text, kind] of NOT_FACTS_EN) assert.equal(classifyUnit(text), kind, text);
});

Deno.test("classifyUnit() counts Chinese statements as facts", () => {
  for (const text of FACTS_ZH) assert.equal(classifyUnit(text), "fact", text);
});

Deno.test("classifyUnit() does not count Chinese requests, questions or fillers", () => {
  for (const [text, kind] of NOT_FACTS_ZH) assert.equal(classifyUnit(text), kind, text);
});

Deno.test("statedFacts() keeps the fact sentences of a turn that mixes them with requests, verbatim", () => {
  assert.deepEqual(statedFacts("The CI runs on Buildkite. Please fix the build."), [
    "The CI runs on Buildkite.",
  ]);
  assert.deepEqual(statedFacts("please fix the build\nDeploy target: staging-eu\nwhat does X do?"), [
    "Deploy target: staging-eu",
  ]);
  assert.deepEqual(statedFacts("部署目标是 eu。请运行测试。"), ["部署目标是 eu。"]);
  assert.deepEqual(statedFacts("Run the linter, e.g. deno lint. The repo uses Deno 2."), [
    "The repo uses Deno 2.",
  ]);
  assert.ok(!statesFact("Step 12: add a test for X"));
  assert.ok(!statesFact("fix the bug? no, run the tests first."));
});

Deno.test("statementUnits() keeps fenced code as one unit that is never a fact", () => {
  const units = statementUnits('The config is below:\n```toml\nport = 5433\nhost = "db"\n```\nrun it');
  assert.deepEqual(units.map((unit) => unit.kind), ["fact", "other", "request"]);
  assert.equal(units[1]!.text, '```toml\nport = 5433\nhost = "db"\n```');
});

Deno.test("classifyUnit() is deterministic and total: every input gets one kind", () => {
  for (const text of ["", "   ", "?", "。", "a", "中", "x: ", "http://example.com", "1. 2. 3."]) {
    const kind = classifyUnit(text);
    assert.ok(["fact", "request", "question", "other"].includes(kind), text);
    assert.equal(classifyUnit(text), kind);
  }
});
