import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileTool } from "../../../src/tool/builtin/write_file.ts";
import { makeTestWorkspace, rejectsWithCode } from "../_tool_context.ts";

Deno.test("writeFileTool creates a file and its parent directories", async () => {
  await using t = await makeTestWorkspace();
  const args = { path: "src/deep/a.ts", content: "one\ntwo\n" };
  assert.deepEqual(await writeFileTool.preview!(args, t.ctx), {
    path: "src/deep/a.ts",
    kind: "create",
    oldText: null,
    newText: "one\ntwo\n",
  });
  assert.deepEqual(await writeFileTool.execute(args, t.ctx), {
    output: "Wrote 2 lines (8 bytes) to src/deep/a.ts (created)",
    data: { kind: "diff", path: "src/deep/a.ts", before: null, after: "one\ntwo\n" },
  });
  assert.equal(await Deno.readTextFile(join(t.root, "src/deep/a.ts")), "one\ntwo\n");
});

Deno.test("writeFileTool overwrites a file, keeps its mode and previews the old text", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("run.sh", "old\n");
  await Deno.chmod(path, 0o755);
  const args = { path: "run.sh", content: "#!/bin/sh\necho hi" };
  assert.deepEqual(await writeFileTool.preview!(args, t.ctx), {
    path: "run.sh",
    kind: "modify",
    oldText: "old\n",
    newText: "#!/bin/sh\necho hi",
  });
  const result = await writeFileTool.execute(args, t.ctx);
  assert.equal(result.output, "Wrote 2 lines (17 bytes) to run.sh (overwrote)");
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o755);
});

Deno.test("writeFileTool refuses to escape the workspace and writes nothing outside", async () => {
  await using t = await makeTestWorkspace();
  await Deno.symlink(t.outside, join(t.root, "out_dir"));
  await Deno.symlink(join(t.outside, "victim.txt"), join(t.root, "victim_link"));
  const attempts: [string, string][] = [
    ["../outside/x.txt", "tool.path_traversal"],
    [join(t.outside, "x.txt"), "tool.path_outside_workspace"],
    ["out_dir/x.txt", "tool.path_outside_workspace"],
    ["victim_link", "tool.path_outside_workspace"],
  ];
  for (const [path, code] of attempts) {
    await rejectsWithCode(writeFileTool.execute({ path, content: "pwned" }, t.ctx), code);
    await rejectsWithCode(writeFileTool.preview!({ path, content: "pwned" }, t.ctx), code);
  }
  assert.deepEqual(await Array.fromAsync(Deno.readDir(t.outside)), []);
});

Deno.test("writeFileTool refuses a file swapped for an outside symlink after preview", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.txt", "a");
  const args = { path: "a.txt", content: "new" };
  await writeFileTool.preview!(args, t.ctx);
  await Deno.remove(path);
  await Deno.symlink(join(t.outside, "victim.txt"), path);
  await rejectsWithCode(writeFileTool.execute(args, t.ctx), "tool.path_outside_workspace");
  assert.deepEqual(await Array.fromAsync(Deno.readDir(t.outside)), []);
});

Deno.test("writeFileTool refuses directories and forbidden paths", async () => {
  await using t = await makeTestWorkspace({ forbidRead: [".env"] });
  await Deno.mkdir(join(t.root, "dir"));
  await rejectsWithCode(writeFileTool.execute({ path: "dir", content: "x" }, t.ctx), "tool.not_a_file");
  await rejectsWithCode(writeFileTool.execute({ path: ".env", content: "x" }, t.ctx), "tool.path_forbidden");
  await t.write("file", "x");
  await rejectsWithCode(
    writeFileTool.execute({ path: "file/child", content: "x" }, t.ctx),
    "tool.path_invalid",
  );
});

Deno.test("writeFileTool writes into an extra writable root", async () => {
  await using t = await makeTestWorkspace();
  const ctx = { ...t.ctx, workspace: { ...t.ctx.workspace, extraWritable: [t.outside] } };
  const result = await writeFileTool.execute({ path: join(t.outside, "x.txt"), content: "" }, ctx);
  assert.equal(result.output, `Wrote 0 lines (0 bytes) to ${join(t.outside, "x.txt")} (created)`);
});
