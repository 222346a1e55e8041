import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { loadConfig } from "../../../src/config/load.ts";
import type { SkillsConfig } from "../../../src/config/types.ts";
import { resolvePaths } from "../../../src/config/paths.ts";
import { loadSkills } from "../../../src/tool/skill/loader.ts";
import { SkillCatalog } from "../../../src/tool/skill/catalog.ts";

interface Place {
  root: string;
  ws: string;
  home: string;
  [Symbol.asyncDispose](): Promise<void>;
}

async function place(): Promise<Place> {
  const root = await Deno.makeTempDir({ prefix: "reasonix-skills-" });
  const ws = join(root, "ws");
  const home = join(root, "home");
  await Deno.mkdir(ws, { recursive: true });
  await Deno.mkdir(home, { recursive: true });
  return { root, ws, home, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

async function write(path: string, text: string): Promise<string> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
  return path;
}

function skill(description: string, extra = "", body = "Do the thing."): string {
  return `---\ndescription: ${description}\n${extra}---\n${body}\n`;
}

const CONFIG: SkillsConfig = {
  paths: [],
  excludedPaths: [],
  disabled: [],
  disableImplicitInvocation: false,
  maxDepth: 3,
};

async function load(p: Place, config: Partial<typeof CONFIG> = {}) {
  return await loadSkills({ workspace: p.ws, home: p.home, config: { ...CONFIG, ...config }, hidden: [] });
}

Deno.test("loadSkills() reads a skill from each root, and the first root wins a name", async () => {
  await using p = await place();
  const extra = join(p.root, "extra");
  await write(join(p.ws, ".reasonix/skills/a/SKILL.md"), skill("from reasonix"));
  await write(join(p.ws, ".agents/skills/b.md"), skill("from agents"));
  await write(join(p.ws, ".agent/skills/c/SKILL.md"), skill("from agent"));
  await write(join(p.ws, ".claude/skills/d/SKILL.md"), skill("from claude", "allowed-tools: Read, Grep\n"));
  await write(join(extra, "e/SKILL.md"), skill("from config paths"));
  await write(join(p.home, "skills/f/SKILL.md"), skill("from home"));
  // The same name in a later root loses, and both paths are reported.
  const loser = await write(join(p.home, "skills/a/SKILL.md"), skill("home's a"));
  const review = await write(join(p.ws, ".claude/skills/review/SKILL.md"), skill("our own review"));
  const { skills, diagnostics } = await load(p, { paths: [extra] });
  const by = new Map(skills.map((s) => [s.name, s]));
  assert.deepEqual(
    ["a", "b", "c", "d", "e", "f"].map((name) => [name, by.get(name)?.description, by.get(name)?.source]),
    [
      ["a", "from reasonix", "project"],
      ["b", "from agents", "project"],
      ["c", "from agent", "project"],
      ["d", "from claude", "project"],
      ["e", "from config paths", "config"],
      ["f", "from home", "home"],
    ],
  );
  assert.deepEqual(by.get("d")?.allowedTools, ["read_file", "grep"]);
  assert.equal(by.get("review")?.path, review);
  assert.equal(by.get("explore")?.source, "builtin");
  const a = join(p.ws, ".reasonix/skills/a/SKILL.md");
  assert.deepEqual(diagnostics, [
    { path: loser, message: `skill "a" is also defined in ${a}, which wins; this one is not used` },
    {
      path: "builtin:review",
      message: `skill "review" is also defined in ${review}, which wins; this one is not used`,
    },
  ]);
  assert.deepEqual(skills.map((s) => s.name), [...skills.map((s) => s.name)].sort());
});

Deno.test("loadSkills() skips a file with bad frontmatter, naming file and line, and keeps the rest", async () => {
  await using p = await place();
  const bad = await write(
    join(p.ws, ".reasonix/skills/bad/SKILL.md"),
    "---\ndescription: ok\nrunAs: [x\n---\nB\n",
  );
  const unknown = await write(join(p.ws, ".reasonix/skills/odd.md"), skill("x", "colour: red\n"));
  const none = await write(join(p.ws, ".reasonix/skills/none.md"), "just text\n");
  await write(join(p.ws, ".reasonix/skills/good/SKILL.md"), skill("fine"));
  const { skills, diagnostics } = await load(p);
  assert.ok(skills.some((s) => s.name === "good"));
  assert.ok(!skills.some((s) => ["bad", "odd", "none"].includes(s.name)));
  assert.deepEqual(diagnostics.map((d) => [d.path, d.line]), [[bad, 3], [none, 1], [unknown, 3]]);
  assert.match(diagnostics[0]!.message, /^skipped: its frontmatter is not valid YAML/);
  assert.equal(diagnostics[2]!.message, `skipped: its frontmatter is wrong: "colour" is not a skill key`);
});

Deno.test("loadSkills() reads every frontmatter key, honours max_depth, excluded_paths and disabled_skills", async () => {
  await using p = await place();
  await write(
    join(p.ws, ".reasonix/skills/group/deep/SKILL.md"),
    skill(
      "nested",
      "name: deep-one\ninvocation: manual\nrunAs: subagent\nmodel: deepseek-v4-pro\neffort: high\nread-only: true\nallowed-tools: [read_file, grep]\ncolor: blue\n",
      "Body.",
    ),
  );
  await write(join(p.ws, ".claude/skills/hidden/SKILL.md"), skill("excluded"));
  const { skills } = await load(p, { excludedPaths: [join(p.ws, ".claude")], disabled: ["test"] });
  const deep = skills.find((s) => s.name === "deep-one");
  assert.deepEqual(deep, {
    name: "deep-one",
    description: "nested",
    invocation: "manual",
    runAs: "subagent",
    model: "deepseek-v4-pro",
    effort: "high",
    readOnly: true,
    allowedTools: ["read_file", "grep"],
    color: "blue",
    body: "Body.",
    source: "project",
    path: join(p.ws, ".reasonix/skills/group/deep/SKILL.md"),
    folder: await Deno.realPath(join(p.ws, ".reasonix/skills/group/deep")),
  });
  assert.ok(!skills.some((s) => s.name === "hidden" || s.name === "test"));
  const shallow = await load(p, { maxDepth: 1 });
  assert.ok(!shallow.skills.some((s) => s.name === "deep-one"));
});

Deno.test("SkillCatalog leaves manual skills out of the model's catalog and builds profiles", async () => {
  await using p = await place();
  await write(join(p.ws, ".reasonix/skills/mine/SKILL.md"), skill("only by hand", "invocation: manual\n"));
  await write(
    join(p.ws, ".reasonix/skills/child.md"),
    skill("a child", "runAs: subagent\nread-only: true\nallowed-tools: grep\n", "You are a child."),
  );
  const catalog = new SkillCatalog(await load(p));
  const block = catalog.block()!;
  assert.ok(!block.includes("mine"));
  assert.ok(block.includes("- child (subagent): a child\n"));
  assert.ok(catalog.get("mine"));
  assert.deepEqual(catalog.profile("child"), {
    name: "child",
    body: "You are a child.",
    readOnly: true,
    allowedTools: ["grep"],
  });
  assert.equal(catalog.profile("nope"), undefined);
  assert.equal(new SkillCatalog(await load(p), { implicit: false }).block(), null);
});

Deno.test("loadSkills() refuses a project skill that is a symlink out of the workspace", async () => {
  await using p = await place();
  const outside = await write(join(p.root, "secret.md"), skill("stolen"));
  await Deno.mkdir(join(p.ws, ".reasonix/skills"), { recursive: true });
  await Deno.symlink(outside, join(p.ws, ".reasonix/skills/leak.md"));
  const { skills, diagnostics } = await load(p);
  assert.ok(!skills.some((s) => s.name === "leak"));
  assert.match(diagnostics[0]!.message, /outside the workspace/);
});

Deno.test("loadConfig() reads [skills] keys, paths resolved against the workspace", async () => {
  await using p = await place();
  const paths = resolvePaths({ HOME: p.home, REASONIX_HOME: join(p.home, ".reasonix") }, "linux");
  await write(
    join(p.ws, "reasonix.toml"),
    `[skills]\npaths = ["team-skills", "~/more"]\nexcluded_paths = [".claude/skills"]\ndisabled_skills = ["init"]\ndisable_implicit_invocation = true\nmax_depth = 2\n`,
  );
  const config = await loadConfig({ workspace: p.ws, paths, flags: {} });
  assert.deepEqual(config.skills, {
    paths: [join(p.ws, "team-skills"), join(p.home, "more")],
    excludedPaths: [join(p.ws, ".claude/skills")],
    disabled: ["init"],
    disableImplicitInvocation: true,
    maxDepth: 2,
  });
});
