import assert from "node:assert/strict";
import { join } from "node:path";
import { deleteRangeTool } from "../../../src/tool/builtin/delete_range.ts";
import { makeTestWorkspace, previewThenRun, rejectsWithCode } from "../_tool_context.ts";

const SOURCE = "a\nfunction old() {\n  body();\n}\nz\n";

Deno.test("deleteRangeTool deletes the block between the anchor lines inclusive and shows a diff", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.ts", SOURCE);
  const args = { path: "a.ts", start_anchor: "function old", end_anchor: "}" };
  const result = await previewThenRun(deleteRangeTool, args, t, {
    path: "a.ts",
    oldText: SOURCE,
    newText: "a\nz\n",
  });
  assert.equal(
    result.output,
    [
      "Deleted lines 2-4 (3 lines) from a.ts",
      "@@ -1,5 +1,2 @@",
      " a",
      "-function old() {",
      "-  body();",
      "-}",
      " z",
    ].join("\n"),
  );
  assert.equal(await Deno.readTextFile(path), "a\nz\n");
});

Deno.test("deleteRangeTool keeps the anchor lines when inclusive is false", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.ts", SOURCE);
  const result = await deleteRangeTool.execute(
    { path: "a.ts", start_anchor: "function old", end_anchor: "}", inclusive: false },
    t.ctx,
  );
  assert.match(result.output, /^Deleted line 3 \(1 line\) from a\.ts\n/);
  assert.equal(await Deno.readTextFile(path), "a\nfunction old() {\n}\nz\n");
  const none = await rejectsWithCode(
    deleteRangeTool.execute(
      { path: "a.ts", start_anchor: "function", end_anchor: "}", inclusive: false },
      t.ctx,
    ),
    "tool.edit_noop",
  );
  assert.equal(
    none.message,
    'Cannot delete from "a.ts": no lines lie between line 2 and line 3; set inclusive to true to delete ' +
      "the anchor lines",
  );
});

Deno.test("deleteRangeTool preserves CRLF, the BOM and a missing final newline", async () => {
  await using t = await makeTestWorkspace();
  const encode = (text: string) => new TextEncoder().encode(text);
  const path = await t.write("win.txt", encode("\uFEFFkeep\r\nstart\r\nmid\r\nend\r\ntail\r\n"));
  const result = await deleteRangeTool.execute(
    { path: "win.txt", start_anchor: "start", end_anchor: "end" },
    t.ctx,
  );
  assert.equal(
    result.output,
    "Deleted lines 2-4 (3 lines) from win.txt\n@@ -1,5 +1,2 @@\n keep\n-start\n-mid\n-end\n tail",
  );
  assert.deepEqual(await Deno.readFile(path), encode("\uFEFFkeep\r\ntail\r\n"));
  const bare = await t.write("bare.txt", "one\ntwo\nthree");
  await deleteRangeTool.execute({ path: "bare.txt", start_anchor: "two", end_anchor: "three" }, t.ctx);
  assert.equal(await Deno.readTextFile(bare), "one");
});

Deno.test("deleteRangeTool says how many lines an anchor matches and where", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.txt", "x\nitem\ny\nitem\nz\n");
  const many = await rejectsWithCode(
    deleteRangeTool.execute({ path: "a.txt", start_anchor: "x", end_anchor: "item" }, t.ctx),
    "tool.edit_ambiguous",
  );
  assert.equal(
    many.message,
    'Cannot delete from "a.txt": end_anchor "item" is on 2 lines (lines 2, 4); give text that occurs on ' +
      "exactly one line",
  );
  const none = await rejectsWithCode(
    deleteRangeTool.execute({ path: "a.txt", start_anchor: "nope", end_anchor: "z" }, t.ctx),
    "tool.edit_no_match",
  );
  assert.match(none.message, /^Cannot delete from "a\.txt": start_anchor "nope" is on no line/);
  assert.equal(await Deno.readTextFile(path), "x\nitem\ny\nitem\nz\n");
});

Deno.test("deleteRangeTool refuses an end before the start, bad anchors and missing files", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.txt", "one\ntwo\nthree\n");
  const order = await rejectsWithCode(
    deleteRangeTool.execute({ path: "a.txt", start_anchor: "three", end_anchor: "one" }, t.ctx),
    "tool.invalid_range",
  );
  assert.equal(
    order.message,
    'Cannot delete from "a.txt": end_anchor is on line 1, which does not come after start_anchor on line 3',
  );
  await rejectsWithCode(
    deleteRangeTool.execute({ path: "a.txt", start_anchor: "two", end_anchor: "two" }, t.ctx),
    "tool.invalid_range",
  );
  await rejectsWithCode(
    deleteRangeTool.execute({ path: "a.txt", start_anchor: "", end_anchor: "two" }, t.ctx),
    "tool.invalid_args",
  );
  await rejectsWithCode(
    deleteRangeTool.execute({ path: "a.txt", start_anchor: "one\ntwo", end_anchor: "three" }, t.ctx),
    "tool.invalid_args",
  );
  await rejectsWithCode(
    deleteRangeTool.execute({ path: "none.txt", start_anchor: "a", end_anchor: "b" }, t.ctx),
    "tool.not_found",
  );
  assert.equal(await Deno.readTextFile(path), "one\ntwo\nthree\n");
});

Deno.test("deleteRangeTool refuses paths that escape the workspace and writes nothing outside", async () => {
  await using t = await makeTestWorkspace();
  const victim = join(t.outside, "victim.txt");
  await Deno.writeTextFile(victim, "a\nb\nc\n");
  await Deno.symlink(victim, join(t.root, "link.txt"));
  const anchors = { start_anchor: "a", end_anchor: "c" };
  await rejectsWithCode(
    deleteRangeTool.execute({ path: "../outside/victim.txt", ...anchors }, t.ctx),
    "tool.path_traversal",
  );
  await rejectsWithCode(
    deleteRangeTool.execute({ path: victim, ...anchors }, t.ctx),
    "tool.path_outside_workspace",
  );
  await rejectsWithCode(
    deleteRangeTool.execute({ path: "link.txt", ...anchors }, t.ctx),
    "tool.path_outside_workspace",
  );
  assert.equal(await Deno.readTextFile(victim), "a\nb\nc\n");
  assert.deepEqual([...Deno.readDirSync(t.outside)].map((entry) => entry.name), ["victim.txt"]);
});
