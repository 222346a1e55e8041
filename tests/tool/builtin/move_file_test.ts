import assert from "node:assert/strict";
import { join } from "node:path";
import { moveFileTool } from "../../../src/tool/builtin/move_file.ts";
import { makeTestWorkspace, rejectsWithCode } from "../_tool_context.ts";
import { exists } from "../../support/files.ts";

Deno.test("moveFileTool moves a file into new parent directories and previews the destination", async () => {
  await using t = await makeTestWorkspace();
  const source = await t.write("src/a.ts", "export const a = 1;\n");
  const args = { source_path: "src/a.ts", destination_path: "lib/deep/b.ts" };
  assert.deepEqual(await moveFileTool.preview!(args, t.ctx), {
    path: "lib/deep/b.ts",
    kind: "create",
    oldText: null,
    newText: "export const a = 1;\n",
  });
  assert.equal((await moveFileTool.execute(args, t.ctx)).output, "Moved src/a.ts to lib/deep/b.ts");
  assert.equal(await exists(source), false);
  assert.equal(await Deno.readTextFile(join(t.root, "lib/deep/b.ts")), "export const a = 1;\n");
});

Deno.test("moveFileTool refuses an existing destination unless overwrite is true", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.txt", "new");
  const dest = await t.write("b.txt", "old");
  const args = { source_path: "a.txt", destination_path: "b.txt" };
  const error = await rejectsWithCode(moveFileTool.execute(args, t.ctx), "tool.already_exists");
  assert.equal(
    error.message,
    'Cannot move "a.txt" to "b.txt": the destination already exists; set overwrite to true to replace it',
  );
  assert.equal(await Deno.readTextFile(dest), "old");
  const replace = { ...args, overwrite: true };
  assert.deepEqual(await moveFileTool.preview!(replace, t.ctx), {
    path: "b.txt",
    kind: "modify",
    oldText: "old",
    newText: "new",
  });
  assert.equal(
    (await moveFileTool.execute(replace, t.ctx)).output,
    "Moved a.txt to b.txt (replaced the existing file)",
  );
  assert.equal(await Deno.readTextFile(dest), "new");
  assert.equal(await exists(join(t.root, "a.txt")), false);
});

Deno.test("moveFileTool moves a directory tree but never into itself or onto a directory", async () => {
  await using t = await makeTestWorkspace();
  await t.write("pkg/mod.ts", "m");
  await t.write("pkg/sub/x.ts", "x");
  await Deno.mkdir(join(t.root, "other"));
  const into = await rejectsWithCode(
    moveFileTool.execute({ source_path: "pkg", destination_path: "pkg/sub/pkg" }, t.ctx),
    "tool.path_invalid",
  );
  assert.equal(into.message, 'Cannot move "pkg" to "pkg/sub/pkg": a directory cannot move into itself');
  await rejectsWithCode(
    moveFileTool.execute({ source_path: "pkg", destination_path: "other", overwrite: true }, t.ctx),
    "tool.already_exists",
  );
  assert.deepEqual(await moveFileTool.preview!({ source_path: "pkg", destination_path: "lib/pkg" }, t.ctx), {
    path: "lib/pkg",
    kind: "create",
    oldText: null,
    newText: null,
  });
  await moveFileTool.execute({ source_path: "pkg", destination_path: "lib/pkg" }, t.ctx);
  assert.equal(await Deno.readTextFile(join(t.root, "lib/pkg/sub/x.ts")), "x");
  assert.equal(await exists(join(t.root, "pkg")), false);
});

Deno.test("moveFileTool refuses a missing source, the same path, a workspace root and a file as parent", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.txt", "a");
  await rejectsWithCode(
    moveFileTool.execute({ source_path: "none.txt", destination_path: "b.txt" }, t.ctx),
    "tool.not_found",
  );
  await rejectsWithCode(
    moveFileTool.execute({ source_path: "a.txt", destination_path: "./a.txt" }, t.ctx),
    "tool.invalid_args",
  );
  await rejectsWithCode(
    moveFileTool.execute({ source_path: ".", destination_path: "elsewhere" }, t.ctx),
    "tool.path_invalid",
  );
  await rejectsWithCode(
    moveFileTool.execute({ source_path: "a.txt", destination_path: "a.txt/b.txt" }, t.ctx),
    "tool.path_invalid",
  );
  assert.equal(await Deno.readTextFile(join(t.root, "a.txt")), "a");
});

Deno.test("moveFileTool moves a symlink itself, not its target", async () => {
  await using t = await makeTestWorkspace();
  await t.write("target.txt", "t");
  await Deno.symlink("target.txt", join(t.root, "link.txt"));
  await moveFileTool.execute({ source_path: "link.txt", destination_path: "renamed.txt" }, t.ctx);
  assert.equal(await Deno.readLink(join(t.root, "renamed.txt")), "target.txt");
  assert.equal(await Deno.readTextFile(join(t.root, "target.txt")), "t");
  assert.equal(await exists(join(t.root, "link.txt")), false);
});

Deno.test("moveFileTool refuses paths that escape the workspace and writes nothing outside", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.txt", "a");
  const victim = join(t.outside, "victim.txt");
  await Deno.writeTextFile(victim, "secret");
  await Deno.symlink(victim, join(t.root, "link.txt"));
  await Deno.symlink(t.outside, join(t.root, "out"));
  const cases: [string, string, string][] = [
    ["a.txt", "../outside/a.txt", "tool.path_traversal"],
    ["a.txt", join(t.outside, "a.txt"), "tool.path_outside_workspace"],
    ["a.txt", "out/a.txt", "tool.path_outside_workspace"],
    ["a.txt", "link.txt", "tool.path_outside_workspace"],
    ["../outside/victim.txt", "b.txt", "tool.path_traversal"],
    [victim, "b.txt", "tool.path_outside_workspace"],
    ["link.txt", "b.txt", "tool.path_outside_workspace"],
  ];
  for (const [source_path, destination_path, code] of cases) {
    await rejectsWithCode(
      moveFileTool.execute({ source_path, destination_path, overwrite: true }, t.ctx),
      code,
    );
  }
  assert.equal(await Deno.readTextFile(victim), "secret");
  assert.deepEqual([...Deno.readDirSync(t.outside)].map((entry) => entry.name), ["victim.txt"]);
  assert.equal(await Deno.readTextFile(join(t.root, "a.txt")), "a");
});
