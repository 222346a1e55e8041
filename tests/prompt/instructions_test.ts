import assert from "node:assert/strict";
import { join } from "node:path";
import { readGuards } from "../../src/config/hidden.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { loadInstructionFiles } from "../../src/prompt/instructions.ts";

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
