import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertStillInside,
  displayPath,
  resolveReadPath,
  resolveWritePath,
} from "../../src/tool/workspace_paths.ts";
import { makeTestWorkspace, rejectsWithCode } from "./_tool_context.ts";

Deno.test("resolveReadPath() resolves relative and absolute paths inside the root", async () => {
  await using t = await makeTestWorkspace();
  await t.write("src/a.ts", "x");
  assert.equal(await resolveReadPath(t.ctx.workspace, "src/a.ts"), join(t.root, "src/a.ts"));
  assert.equal(await resolveReadPath(t.ctx.workspace, "./src/./a.ts"), join(t.root, "src/a.ts"));
  assert.equal(await resolveReadPath(t.ctx.workspace, join(t.root, "src/a.ts")), join(t.root, "src/a.ts"));
  assert.equal(await resolveReadPath(t.ctx.workspace, "."), t.root);
  assert.equal(await resolveReadPath(t.ctx.workspace, "missing/new.txt"), join(t.root, "missing/new.txt"));
});

Deno.test("resolveReadPath() rejects any .. segment", async () => {
  await using t = await makeTestWorkspace();
  await rejectsWithCode(resolveReadPath(t.ctx.workspace, "../outside/x"), "tool.path_traversal");
  await rejectsWithCode(resolveReadPath(t.ctx.workspace, "src/../a"), "tool.path_traversal");
  await rejectsWithCode(resolveWritePath(t.ctx.workspace, `${t.root}/../outside/x`), "tool.path_traversal");
});

Deno.test("resolveReadPath() rejects absolute paths outside the roots and names them", async () => {
  await using t = await makeTestWorkspace();
  const error = await rejectsWithCode(
    resolveReadPath(t.ctx.workspace, join(t.outside, "secret")),
    "tool.path_outside_workspace",
  );
  assert.match(error.message, new RegExp(`"${join(t.outside, "secret")}"`));
  assert.match(error.message, new RegExp(`"${t.root}"`));
  assert.match(error.message, /--add-dir/);
  await rejectsWithCode(resolveWritePath(t.ctx.workspace, "/etc/passwd"), "tool.path_outside_workspace");
});

Deno.test("resolveWritePath() allows extra writable roots", async () => {
  await using t = await makeTestWorkspace();
  const workspace = { ...t.ctx.workspace, extraWritable: [t.outside] };
  assert.equal(await resolveWritePath(workspace, join(t.outside, "x")), join(t.outside, "x"));
  assert.equal(await resolveReadPath(workspace, join(t.outside, "x")), join(t.outside, "x"));
});

Deno.test("resolveReadPath() refuses symlinks that lead outside, for reads and writes", async () => {
  await using t = await makeTestWorkspace();
  await Deno.writeTextFile(join(t.outside, "secret.txt"), "s");
  await Deno.symlink(join(t.outside, "secret.txt"), join(t.root, "file_link"));
  await Deno.symlink(t.outside, join(t.root, "dir_link"));
  await Deno.symlink(join(t.outside, "nothing_yet"), join(t.root, "dangling"));
  for (const input of ["file_link", "dir_link/secret.txt", "dir_link/new/deep.txt", "dangling"]) {
    const error = await rejectsWithCode(
      resolveReadPath(t.ctx.workspace, input),
      "tool.path_outside_workspace",
    );
    assert.match(error.message, /resolves to/);
    await rejectsWithCode(resolveWritePath(t.ctx.workspace, input), "tool.path_outside_workspace");
  }
});

Deno.test("resolveReadPath() follows symlinks that stay inside", async () => {
  await using t = await makeTestWorkspace();
  await t.write("real/a.txt", "a");
  await Deno.symlink("real", join(t.root, "alias"));
  await Deno.symlink("real/a.txt", join(t.root, "a_link"));
  assert.equal(await resolveReadPath(t.ctx.workspace, "alias/a.txt"), join(t.root, "real/a.txt"));
  assert.equal(await resolveWritePath(t.ctx.workspace, "a_link"), join(t.root, "real/a.txt"));
  assert.equal(await resolveWritePath(t.ctx.workspace, "alias/new.txt"), join(t.root, "real/new.txt"));
});

Deno.test("resolveReadPath() reports a symlink loop as tool.path_invalid", async () => {
  await using t = await makeTestWorkspace();
  await Deno.symlink("loop_b", join(t.root, "loop_a"));
  await Deno.symlink("loop_a", join(t.root, "loop_b"));
  const error = await rejectsWithCode(resolveReadPath(t.ctx.workspace, "loop_a/x"), "tool.path_invalid");
  assert.match(error.message, /symbolic links/);
  await rejectsWithCode(resolveWritePath(t.ctx.workspace, "loop_b"), "tool.path_invalid");
});

Deno.test("resolveReadPath() reports forbidden paths and their children as not found", async () => {
  await using t = await makeTestWorkspace({ forbidRead: [".env", "secrets"] });
  await t.write(".env", "KEY=1");
  await t.write("secrets/key.pem", "k");
  await Deno.symlink(".env", join(t.root, "env_alias"));
  for (const input of [".env", "secrets", "secrets/key.pem", "env_alias"]) {
    const error = await rejectsWithCode(resolveReadPath(t.ctx.workspace, input), "tool.not_found");
    assert.equal(error.message, `Cannot access "${input}": no such file or directory`);
  }
  await rejectsWithCode(resolveWritePath(t.ctx.workspace, ".env"), "tool.path_forbidden");
});

Deno.test("assertStillInside() refuses a file swapped for a symlink to outside", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.txt", "a");
  const abs = await resolveWritePath(t.ctx.workspace, "a.txt");
  await assertStillInside(t.ctx.workspace, abs);
  await Deno.remove(path);
  await Deno.symlink(join(t.outside, "victim.txt"), path);
  await rejectsWithCode(assertStillInside(t.ctx.workspace, abs), "tool.path_outside_workspace");
});

Deno.test("assertStillInside() refuses a path that now resolves elsewhere inside", async () => {
  await using t = await makeTestWorkspace();
  await t.write("dir/a.txt", "a");
  await t.write("other/a.txt", "b");
  const abs = await resolveWritePath(t.ctx.workspace, "dir/a.txt");
  await Deno.remove(join(t.root, "dir"), { recursive: true });
  await Deno.symlink("other", join(t.root, "dir"));
  await rejectsWithCode(assertStillInside(t.ctx.workspace, abs), "tool.path_changed");
});

Deno.test("displayPath() is relative inside the root and absolute outside", async () => {
  await using t = await makeTestWorkspace();
  assert.equal(displayPath(t.ctx.workspace, join(t.root, "src/a.ts")), "src/a.ts");
  assert.equal(displayPath(t.ctx.workspace, t.root), ".");
  assert.equal(displayPath(t.ctx.workspace, join(t.outside, "x")), join(t.outside, "x"));
  assert.equal(displayPath(t.ctx.workspace, `${t.root}-sibling/x`), `${t.root}-sibling/x`);
});
