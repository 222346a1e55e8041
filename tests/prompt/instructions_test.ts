import assert from "node:assert/strict";
import { join } from "node:path";
import { readGuards } from "../../src/config/hidden.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { loadInstructionFiles } from "../../src/prompt/instructions.ts";
import { buildSystemPrompt } from "../../src/prompt/system.ts";

async function setup() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-instructions-" }));
  const paths = resolvePaths({ HOME: join(root, "user"), REASONIX_HOME: join(root, "home") }, "linux");
  const workspace = join(root, "ws");
  for (const dir of [paths.home, workspace, join(root, "user/.ssh"), join(root, "elsewhere")]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  await Deno.writeTextFile(paths.envFile, "DEEPSEEK_API_KEY=sk-secret\n");
  const load = () => loadInstructionFiles({ home: paths.home, workspace, ...readGuards(paths, []) });
  return {
    root,
    paths,
    workspace,
    load,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

Deno.test("loadInstructionFiles() refuses workspace files that resolve outside it or into hidden places", async () => {
  await using fx = await setup();
  await Deno.symlink(fx.paths.envFile, join(fx.workspace, "AGENTS.md"));
  await Deno.writeTextFile(join(fx.root, "elsewhere/x.md"), "outside");
  await Deno.symlink(join(fx.root, "elsewhere/x.md"), join(fx.workspace, "CLAUDE.md"));
  await Deno.writeTextFile(join(fx.root, "user/.ssh/id_ed25519"), "PRIVATE KEY");
  await Deno.symlink("../user/.ssh/id_ed25519", join(fx.workspace, "REASONIX.local.md"));
  await Deno.mkdir(join(fx.workspace, "docs"));
  await Deno.writeTextFile(join(fx.workspace, "docs/agents.md"), "Use tabs.");
  await Deno.symlink("docs/agents.md", join(fx.workspace, "REASONIX.md"));
  const loaded = await fx.load();
  assert.deepEqual(loaded.files, [{ label: "workspace/REASONIX.md", scope: "project", text: "Use tabs." }]);
  assert.deepEqual(loaded.warnings, [
    `Cannot load "${join(fx.workspace, "AGENTS.md")}" (it points to "${fx.paths.envFile}"): it is outside ` +
    "the workspace; the file is not loaded",
    `Cannot load "${join(fx.workspace, "CLAUDE.md")}" (it points to "${join(fx.root, "elsewhere/x.md")}"): ` +
    "it is outside the workspace; the file is not loaded",
    `Cannot load "${join(fx.workspace, "REASONIX.local.md")}" (it points to "${
      join(fx.root, "user/.ssh/id_ed25519")
    }"): it is outside the workspace; the file is not loaded`,
  ]);
});

Deno.test("loadInstructionFiles() refuses a workspace that holds a hidden path, like a forbid_read dir", async () => {
  await using fx = await setup();
  await Deno.mkdir(join(fx.workspace, "private"));
  await Deno.writeTextFile(join(fx.workspace, "private/notes.md"), "secret plans");
  await Deno.symlink("private/notes.md", join(fx.workspace, "AGENTS.md"));
  const loaded = await loadInstructionFiles({
    home: fx.paths.home,
    workspace: fx.workspace,
    ...readGuards(fx.paths, [join(fx.workspace, "private")]),
  });
  assert.deepEqual(loaded.files, []);
  assert.match(loaded.warnings[0]!, /it is a protected location/);
});

Deno.test("loadInstructionFiles() takes the user's own files in the home but never its .env", async () => {
  await using fx = await setup();
  await Deno.writeTextFile(join(fx.paths.home, "REASONIX.md"), "Answer briefly.");
  await Deno.symlink(fx.paths.envFile, join(fx.paths.home, "AGENTS.md"));
  await Deno.symlink(fx.paths.globalConfigFile, join(fx.paths.home, "CLAUDE.md"));
  await Deno.writeTextFile(fx.paths.globalConfigFile, `default_model = "x"\n`);
  const loaded = await fx.load();
  assert.deepEqual(loaded.files, [{ label: "user/REASONIX.md", scope: "global", text: "Answer briefly." }]);
  assert.equal(loaded.warnings.length, 2);
  for (const warning of loaded.warnings) assert.match(warning, /it is a protected location/);
  assert.doesNotMatch(JSON.stringify(loaded), /sk-secret/);
});

async function write(files: Record<string, string>, base: string) {
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(base, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(base, name), text);
  }
}

Deno.test("loadInstructionFiles() loads them all: home, then the root down to the target, plain before .local", async () => {
  await using fx = await setup();
  await write({ "REASONIX.md": "g plain", "AGENTS.local.md": "g local" }, fx.paths.home);
  await write({
    "AGENTS.local.md": "root local",
    "CLAUDE.md": "root claude",
    "AGENTS.md": "root agents",
    "a/REASONIX.md": "a reasonix",
    "a/b/CLAUDE.local.md": "b local",
    "a/b/AGENTS.md": "b agents",
    "a/b/c/AGENTS.md": "below the target",
    "other/AGENTS.md": "a sibling, not on the way",
  }, fx.workspace);
  const load = (target?: string) =>
    loadInstructionFiles({
      home: fx.paths.home,
      workspace: fx.workspace,
      ...(target ? { target } : {}),
      ...readGuards(fx.paths, []),
    });
  const loaded = await load(join(fx.workspace, "a/b"));
  assert.deepEqual(loaded.files.map((f) => [f.label, f.scope, f.text]), [
    ["user/REASONIX.md", "global", "g plain"],
    ["user/AGENTS.local.md", "global", "g local"],
    ["workspace/AGENTS.md", "project", "root agents"],
    ["workspace/CLAUDE.md", "project", "root claude"],
    ["workspace/AGENTS.local.md", "local", "root local"],
    ["workspace/a/REASONIX.md", "directory", "a reasonix"],
    ["workspace/a/b/AGENTS.md", "directory", "b agents"],
    ["workspace/a/b/CLAUDE.local.md", "local", "b local"],
  ]);
  assert.deepEqual(loaded.warnings, []);
  const prompt = buildSystemPrompt({ instructions: loaded.files });
  assert.match(prompt, /later file takes precedence/);
  const at = (text: string) => prompt.indexOf(text);
  assert.ok(at("g plain") < at("root agents") && at("root agents") < at("root local"), "home, root, local");
  assert.ok(
    at("root local") < at("a reasonix") && at("b agents") < at("b local"),
    "deeper and local come later",
  );
  const rootOnly = await load();
  assert.deepEqual(rootOnly.files.map((f) => f.label).filter((l) => l.startsWith("workspace/a")), []);
  const outside = await load(join(fx.root, "elsewhere"));
  assert.deepEqual(
    outside.files.map((f) => f.label),
    rootOnly.files.map((f) => f.label),
    "a target outside: root",
  );
});

Deno.test("loadInstructionFiles() keeps identical content once, whether by symlink or by copy", async () => {
  await using fx = await setup();
  await write(
    { "AGENTS.md": "Use tabs.\n", "a/AGENTS.md": "\nUse tabs.", "a/CLAUDE.md": "Deeper rule." },
    fx.workspace,
  );
  await Deno.symlink("AGENTS.md", join(fx.workspace, "CLAUDE.md"));
  await Deno.writeTextFile(join(fx.workspace, "REASONIX.local.md"), "");
  const loaded = await loadInstructionFiles({
    home: fx.paths.home,
    workspace: fx.workspace,
    target: join(fx.workspace, "a"),
    ...readGuards(fx.paths, []),
  });
  assert.deepEqual(loaded.files.map((f) => [f.label, f.text]), [
    ["workspace/AGENTS.md", "Use tabs.\n"],
    ["workspace/a/CLAUDE.md", "Deeper rule."],
  ]);
  assert.deepEqual(loaded.entries.map((e) => [e.label, e.status]), [
    ["workspace/AGENTS.md", "loaded"],
    ["workspace/CLAUDE.md", "duplicate"],
    ["workspace/REASONIX.local.md", "empty"],
    ["workspace/a/AGENTS.md", "duplicate"],
    ["workspace/a/CLAUDE.md", "loaded"],
  ]);
});

Deno.test("loadInstructionFiles() refuses a deeper file that points to the key file", async () => {
  await using fx = await setup();
  await Deno.mkdir(join(fx.workspace, "a"), { recursive: true });
  await Deno.symlink(fx.paths.envFile, join(fx.workspace, "a/AGENTS.local.md"));
  const loaded = await loadInstructionFiles({
    home: fx.paths.home,
    workspace: fx.workspace,
    target: join(fx.workspace, "a"),
    ...readGuards(fx.paths, []),
  });
  assert.deepEqual(loaded.files, []);
  assert.match(loaded.warnings[0]!, /a\/AGENTS\.local\.md.*outside the workspace/);
  assert.doesNotMatch(JSON.stringify(loaded), /sk-secret/);
});

Deno.test("loadInstructionFiles() refuses a workspace file that points into .git or an .env file", async () => {
  await using fx = await setup();
  await write({ ".env": "KEY=sk-project", ".git/config": "url = https://token@x" }, fx.workspace);
  await Deno.symlink(".env", join(fx.workspace, "AGENTS.md"));
  await Deno.symlink(".git/config", join(fx.workspace, "CLAUDE.md"));
  const loaded = await fx.load();
  assert.deepEqual(loaded.files, []);
  assert.equal(loaded.warnings.length, 2);
  for (const warning of loaded.warnings) {
    assert.match(warning, /git internals and \.env files are not loaded/);
  }
  assert.doesNotMatch(JSON.stringify(loaded), /sk-project|token@/);
});
