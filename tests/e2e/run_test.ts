import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";

const BUGGY = "export function add(a, b) {\n  return a - b;\n}\n";
const TEST = [
  `import { add } from "./math.js";`,
  `if (add(2, 3) !== 5) { console.error("FAIL: add(2, 3) = " + add(2, 3)); process.exit(1); }`,
  `console.log("PASS");`,
  ``,
].join("\n");

function fixScript() {
  return [
    {
      reasoning: "Let me look at the code first.",
      toolCalls: [{ name: "read_file", arguments: `{"path":"math.js"}` }],
    },
    {
      reasoning: "Run the test to see it fail.",
      toolCalls: [{ name: "bash", arguments: `{"command":"node test.mjs"}` }],
    },
    {
      reasoning: "The subtraction is the bug.",
      toolCalls: [{
        name: "edit_file",
        arguments: `{"path": "math.js", "old_string": "return a - b;", "new_string": "return a + b;"}`,
      }],
    },
    { toolCalls: [{ name: "bash", arguments: `{"command":"node test.mjs"}` }] },
    { reasoning: "Done.", content: "Fixed `add` in math.js: it subtracted. `node test.mjs` now passes." },
  ];
}

function prefixOf(body: string): { system: unknown; tools: string } {
  const json = JSON.parse(body);
  const start = body.indexOf(`"tools":`);
  const end = body.indexOf(`,"stream":`);
  return { system: json.messages[0], tools: body.slice(start, end) };
}

Deno.test("reasonix run fixes a failing test end to end, and --continue keeps the prefix", async () => {
  const sim = await DeepSeekSim.start({ script: fixScript(), apiKey: "sk-sim-test" });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({
    "math.js": BUGGY,
    "test.mjs": TEST,
    "package.json": `{"type":"module"}\n`,
  });
  try {
    const run = await runCli(
      ["run", "--permission-mode", "auto", "--output-format", "json", "fix the failing test"],
      { home, cwd: ws },
    );
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout.trim());
    assert.equal(result.type, "result");
    assert.equal(result.subtype, "success");
    assert.equal(result.is_error, false);
    assert.equal(result.num_turns, 1);
    assert.equal(result.num_model_calls, 5);
    assert.match(result.result, /Fixed `add`/);
    assert.match(result.session_id, /^\d{8}-\d{6}-[0-9a-f]{8}$/);
    assert.equal(result.currency, "CNY");
    assert.ok(result.total_cost > 0);
    assert.equal(result.total_cost_usd, result.total_cost);
    assert.ok(Number.isInteger(result.duration_ms));
    const stats = sim.stats();
    assert.equal(result.usage.input_tokens, stats.promptTokens);
    assert.equal(result.usage.output_tokens, stats.completionTokens);
    assert.equal(result.usage.cache_hit_tokens, stats.hitTokens);
    assert.equal(result.usage.cache_miss_tokens, stats.missTokens);
    assert.ok(stats.hitTokens > 0, "later requests hit the cache");

    assert.equal(await Deno.readTextFile(join(ws, "math.js")), BUGGY.replace("a - b", "a + b"));
    const bodies = sim.requests.map((r) => r.body);
    assert.equal(bodies.length, 5);
    const first = prefixOf(bodies[0]!);
    for (const body of bodies) assert.deepEqual(prefixOf(body), first);
    const toolResults = sim.requests[4]!.json.messages.filter((m: { role: string }) => m.role === "tool");
    assert.match(toolResults[0].content, /return a - b;/);
    assert.match(toolResults[1].content, /FAIL: add\(2, 3\) = -1[\s\S]*exit code 1/);
    assert.match(toolResults[2].content, /Edited/);
    assert.match(toolResults[3].content, /PASS[\s\S]*exit code 0/);
    for (let i = 1; i < bodies.length; i++) {
      const prev = sim.requests[i - 1]!.json.messages;
      const next = sim.requests[i]!.json.messages;
      assert.deepEqual(next.slice(0, prev.length), prev, `request ${i} replays request ${i - 1} exactly`);
    }

    sim.push({ content: "It was the minus sign." });
    const again = await runCli(
      ["run", "-c", "--output-format", "json", "what was wrong?"],
      { home, cwd: ws },
    );
    assert.equal(again.code, 0, again.stderr);
    const second = JSON.parse(again.stdout.trim());
    assert.equal(second.session_id, result.session_id);
    assert.equal(second.result, "It was the minus sign.");
    const last = sim.requests[5]!;
    assert.deepEqual(prefixOf(last.body), first);
    const before = bodies[4]!;
    const messagesStart = before.indexOf(`"messages":[`);
    const priorMessages = before.slice(messagesStart, before.indexOf(`],"tools":`));
    assert.ok(
      last.body.includes(priorMessages),
      "the resumed request replays the stored messages byte for byte",
    );
    assert.ok(second.usage.cache_hit_tokens > stats.promptTokens / 10, "the resumed session hits the cache");
    assert.equal((await sessionFiles(home)).length, 1);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run refuses writes headless by default and tells the model why", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi"}` }] },
      { content: "I could not write the file." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  try {
    const run = await runCli(["run", "--output-format", "json", "write x.txt"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    await assert.rejects(Deno.stat(join(ws, "x.txt")), Deno.errors.NotFound);
    const tool = sim.requests[1]!.json.messages.at(-1);
    assert.equal(tool.role, "tool");
    assert.match(tool.content, /^Error \[permission\.needs_approval\]/);
    assert.match(tool.content, /--permission-mode auto/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run sends its task through submit: a slash command answers without the model, an unknown one is a usage error", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  try {
    const todo = await runCli(["run", "/todo"], { home, cwd: ws });
    assert.equal(todo.code, 0, todo.stderr);
    assert.equal(todo.stdout, "The todo list is empty.\n");
    const json = await runCli(["run", "--output-format", "json", "/nope"], { home, cwd: ws });
    assert.equal(json.code, 2);
    const result = JSON.parse(json.stdout.trim());
    assert.equal(result.is_error, true);
    assert.match(result.result, /nope/);
    assert.equal(sim.requests.length, 0, "no command reaches the model");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run --effort takes the documented aliases: medium sends reasoning_effort high", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "ok" }, { content: "ok" }] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  try {
    const medium = await runCli(["run", "--effort", "medium", "hi"], { home, cwd: ws });
    assert.equal(medium.code, 0, medium.stderr);
    assert.equal(sim.requests[0]!.json.reasoning_effort, "high");
    const ultra = await runCli(["run", "--effort", "ULTRA", "hi"], { home, cwd: ws });
    assert.equal(ultra.code, 0, ultra.stderr);
    assert.equal(sim.requests[1]!.json.reasoning_effort, "max");
    const bad = await runCli(["run", "--effort", "extreme", "hi"], { home, cwd: ws });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--effort.*"medium".*got "extreme"/);
    assert.equal(sim.requests.length, 2);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run --output-format json always carries total_cost, total_cost_usd and currency", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "ok" }] });
  const extraToml = [
    `[[providers]]`,
    `name = "plain"`,
    `kind = "openai"`,
    `base_url = "${sim.url}"`,
    `model = "sim-unpriced"`,
    `api_key_env = "DEEPSEEK_API_KEY"`,
    ``,
  ].join("\n");
  const home = await makeHome({ simUrl: sim.url, extraToml });
  const ws = await makeWorkspace({});
  try {
    const unpriced = await runCli(["run", "--model", "plain", "--output-format", "json", "hi"], {
      home,
      cwd: ws,
    });
    assert.equal(unpriced.code, 0, unpriced.stderr + unpriced.stdout);
    const result = JSON.parse(unpriced.stdout.trim());
    assert.equal(result.result, "ok");
    assert.deepEqual([result.total_cost, result.total_cost_usd, result.currency], [null, null, null]);
    const failed = await runCli(["run", "--effort", "extreme", "--output-format", "json", "hi"], {
      home,
      cwd: ws,
    });
    assert.equal(failed.code, 2);
    const early = JSON.parse(failed.stdout.trim());
    assert.deepEqual([early.total_cost, early.total_cost_usd, early.currency], [null, null, null]);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
