/**
 * `@path` imports in instruction files, through the real loader: expansion, dedupe, and each refusal
 * (absolute, `..`, symlink escape, hidden, unreadable, cycle, depth, size), always reported.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readGuards } from "../../src/config/hidden.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { loadInstructionFiles, MAX_TOTAL_BYTES } from "../../src/prompt/instructions.ts";
import { MAX_IMPORTS } from "../../src/prompt/instruction_imports.ts";

async function setup(files: Record<string, string>, forbidRead: string[] = []) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-imports-" }));
  const paths = resolvePaths({ HOME: join(root, "user"), REASONIX_HOME: join(root, "home") }, "linux");
  const workspace = join(root, "ws");
  for (const dir of [paths.home, workspace]) await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(paths.envFile, "DEEPSEEK_API_KEY=sk-secret\n");
  await Deno.writeTextFile(join(root, "outside.md"), "OUTSIDE TEXT");
  for (const [name, text] of Object.entries(files)) {
    const path = join(workspace, name);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    if (text.startsWith("symlink:")) await Deno.symlink(text.slice(8), path);
    else await Deno.writeTextFile(path, text);
  }
  const loaded = await loadInstructionFiles({
    home: paths.home,
    workspace,
    ...readGuards(paths, forbidRead.map((p) => join(workspace, p))),
  });
  await Deno.remove(root, { recursive: true });
  return { root, paths, workspace, loaded, text: loaded.files.map((f) => f.text).join("\n---\n") };
}

function refusals(loaded: Awaited<ReturnType<typeof setup>>["loaded"]) {
  return loaded.entries.flatMap((e) => e.imports).filter((r) => r.status === "refused").map((r) => [
    r.spec,
    r.reason,
  ]);
}

Deno.test("expandImports() inlines @path lines in place, nested, but not in code fences or for mentions", async () => {
  const fx = await setup({
    "AGENTS.md":
      "Intro\n@docs/style.md\n```\n@docs/style.md\n```\n@someone\nsee @docs/style.md inline\nEnd\n",
    "docs/style.md": "Use tabs.\n  @deeper/naming.md  \n",
    "docs/deeper/naming.md": "snake_case files.",
  });
  assert.equal(
    fx.text,
    "Intro\n" +
      '<instruction-import path="docs/style.md">\nUse tabs.\n' +
      '<instruction-import path="deeper/naming.md">\nsnake_case files.\n</instruction-import>\n' +
      "</instruction-import>\n" +
      "```\n@docs/style.md\n```\n@someone\nsee @docs/style.md inline\nEnd\n",
  );
  assert.deepEqual(fx.loaded.warnings, []);
  assert.deepEqual(fx.loaded.entries[0]!.imports.map((r) => [r.spec, r.depth, r.status]), [
    ["docs/style.md", 1, "loaded"],
    ["deeper/naming.md", 2, "loaded"],
  ]);
});

Deno.test("expandImports() includes a file once across all instruction files", async () => {
  const fx = await setup({
    "AGENTS.md": "@shared.md\n@shared.md\nagents",
    "CLAUDE.md": "@shared.md\nclaude",
    "REASONIX.local.md": "@AGENTS.md",
    "shared.md": "SHARED RULE",
  });
  assert.equal(fx.text.split("SHARED RULE").length, 2, "once");
  assert.equal(fx.text.split("agents").length, 2, "AGENTS.md once, though REASONIX.local.md imports it");
  const statuses = fx.loaded.entries.map((e) => [e.label, e.status, e.imports.map((r) => r.status)]);
  assert.deepEqual(statuses, [
    ["workspace/AGENTS.md", "loaded", ["loaded", "duplicate"]],
    ["workspace/CLAUDE.md", "loaded", ["duplicate"]],
    ["workspace/REASONIX.local.md", "empty", ["duplicate"]],
  ]);
});

Deno.test("expandImports() refuses absolute paths and parent escapes, and reports them", async () => {
  const fx = await setup({
    "AGENTS.md": "@/etc/hostname\n@~/.ssh/id_rsa\n@../outside.md\n@docs/../outside.md\n@docs/up.md",
    "docs/up.md": "@../AGENTS.local.md",
    "AGENTS.local.md": "local",
  });
  assert.deepEqual(refusals(fx.loaded), [
    ["/etc/hostname", "absolute"],
    ["~/.ssh/id_rsa", "absolute"],
    ["../outside.md", "parent"],
    ["docs/../outside.md", "parent"],
    ["../AGENTS.local.md", "parent"],
  ]);
  assert.equal(fx.loaded.warnings.length, 5);
  assert.match(fx.loaded.warnings[2]!, /Cannot import "@\.\.\/outside\.md" in ".*AGENTS\.md": .*`\.\.`/);
  assert.match(fx.text, /^@\/etc\/hostname$/m, "a refused line stays as text");
  assert.doesNotMatch(fx.text, /OUTSIDE TEXT/);
});

Deno.test("expandImports() refuses a symlink out of the importing file's directory, even inside the workspace", async () => {
  const fx = await setup({
    "AGENTS.md": "@docs/a.md\n@key.md",
    "key.md": "symlink:../home/.env",
    "docs/a.md": "@up.md\n@in.md",
    "docs/up.md": "symlink:../root.md",
    "docs/in.md": "symlink:inner/target.md",
    "docs/inner/target.md": "INNER OK",
    "root.md": "ROOT ONLY",
  });
  assert.deepEqual(refusals(fx.loaded), [["up.md", "symlink escape"], ["key.md", "symlink escape"]]);
  assert.match(fx.text, /INNER OK/, "a symlink that stays inside the tree is fine");
  assert.doesNotMatch(fx.text, /ROOT ONLY|sk-secret/);
  assert.doesNotMatch(JSON.stringify(fx.loaded), /sk-secret/);
});

Deno.test("expandImports() never reads a hidden path: forbid_read in the workspace, the home's secrets", async () => {
  const fx = await setup({ "AGENTS.md": "@private/plans.md", "private/plans.md": "SECRET PLANS" }, [
    "private",
  ]);
  assert.deepEqual(refusals(fx.loaded), [["private/plans.md", "hidden"]]);
  assert.doesNotMatch(fx.text, /SECRET PLANS/);
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-imports-" }));
  try {
    const paths = resolvePaths({ HOME: join(root, "user"), REASONIX_HOME: join(root, "home") }, "linux");
    await Deno.mkdir(join(paths.home, "sessions"), { recursive: true });
    await Deno.writeTextFile(paths.envFile, "DEEPSEEK_API_KEY=sk-secret\n");
    await Deno.writeTextFile(join(paths.home, "AGENTS.md"), "@.env\n@config.toml\nmine");
    await Deno.writeTextFile(paths.globalConfigFile, "x = 1");
    const loaded = await loadInstructionFiles({
      home: paths.home,
      workspace: join(root, "ws"),
      ...readGuards(paths, []),
    });
    assert.deepEqual(refusals(loaded), [[".env", "hidden"], ["config.toml", "hidden"]]);
    assert.doesNotMatch(JSON.stringify(loaded.files), /sk-secret|x = 1/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("expandImports() never imports git internals or .env files, even inside the tree", async () => {
  const fx = await setup({
    "AGENTS.md": "@.git/config\n@.env\n@docs/.env.local\n@settings.md\n@docs/ok.md",
    "settings.md": "symlink:.env",
    ".git/config": "url = https://token@example.com/repo",
    ".env": "KEY=sk-project",
    "docs/.env.local": "KEY=sk-local",
    "docs/ok.md": "OK",
  });
  assert.deepEqual(refusals(fx.loaded), [
    [".git/config", "hidden"],
    [".env", "hidden"],
    ["docs/.env.local", "hidden"],
    ["settings.md", "hidden"],
  ]);
  assert.doesNotMatch(JSON.stringify(fx.loaded), /token@|sk-project|sk-local/);
  assert.match(fx.text, /OK/);
});

Deno.test("expandImports() reports unreadable imports: missing, a directory", async () => {
  const fx = await setup({ "AGENTS.md": "@missing.md\n@docs/\n@docs/x.md", "docs/x.md": "x" });
  assert.deepEqual(refusals(fx.loaded), [["missing.md", "unreadable"], ["docs/", "unreadable"]]);
  assert.match(fx.loaded.warnings[0]!, /cannot be read \(not found\)/);
  assert.match(fx.loaded.warnings[1]!, /cannot be read \(not a file\)/);
});

Deno.test("expandImports() refuses cycles, self-imports included", async () => {
  const fx = await setup({
    "AGENTS.md": "@a.md",
    "a.md": "A\n@b.md",
    "b.md": "B\n@a.md\n@b.md",
  });
  assert.deepEqual(refusals(fx.loaded), [["a.md", "cycle"], ["b.md", "cycle"]]);
  assert.match(fx.text, /A\n<instruction-import path="b\.md">\nB\n@a\.md\n@b\.md\n<\/instruction-import>/);
});

Deno.test("expandImports() follows five levels and refuses the sixth", async () => {
  const files: Record<string, string> = { "AGENTS.md": "@l1.md" };
  for (let i = 1; i <= 6; i++) files[`l${i}.md`] = `level ${i}\n@l${i + 1}.md`;
  files["l7.md"] = "level 7";
  const fx = await setup(files);
  for (let i = 1; i <= 5; i++) assert.match(fx.text, new RegExp(`level ${i}\\n`));
  assert.doesNotMatch(fx.text, /level 6/);
  assert.deepEqual(refusals(fx.loaded), [["l6.md", "too deep"]]);
  assert.match(fx.loaded.warnings[0]!, /at most 5 levels/);
});

Deno.test("expandImports() stops at the total size limit and says so", async () => {
  const big = "x".repeat(60 * 1024);
  const files: Record<string, string> = { "AGENTS.md": ["a", "b", "c"].map((n) => `@${n}.md`).join("\n") };
  for (const n of ["a", "b", "c"]) files[`${n}.md`] = big;
  const fx = await setup(files);
  assert.ok(fx.text.length <= MAX_TOTAL_BYTES, `${fx.text.length}`);
  assert.deepEqual(refusals(fx.loaded), [["c.md", "over the size limit"]]);
  assert.match(fx.loaded.warnings[0]!, /total limit/);
});

Deno.test("expandImports() follows at most MAX_IMPORTS import lines per load and reports the rest once", async () => {
  const lines = Array.from({ length: MAX_IMPORTS + 10 }, (_, i) => `@m${i}.md`).join("\n");
  const fx = await setup({ "AGENTS.md": lines, "m0.md": "FIRST" });
  const refused = refusals(fx.loaded);
  assert.equal(refused.filter(([, reason]) => reason === "unreadable").length, MAX_IMPORTS - 1);
  assert.deepEqual(refused.filter(([, reason]) => reason === "too many"), [[
    `m${MAX_IMPORTS}.md`,
    "too many",
  ]]);
  assert.equal(fx.loaded.warnings.length, MAX_IMPORTS);
  assert.match(fx.text, /FIRST/);
});
