import assert from "node:assert/strict";
import { join } from "node:path";
import { multiEditTool } from "../../../src/tool/builtin/multi_edit.ts";
import { makeTestWorkspace, previewThenRun, rejectsWithCode } from "../_tool_context.ts";

Deno.test("multiEditTool applies edits in order and reports a diff and the counts", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.ts", "let a = 1;\nlet b = 2;\nlet c = 3;\nlet b2 = b;\n");
  const args = {
    path: "a.ts",
    edits: [
      { old_string: "let a = 1;", new_string: "const a = 1;" },
      { old_string: "const a = 1;\nlet b = 2;", new_string: "const a = 1;\nconst b = 2;" },
      { old_string: "let", new_string: "var", replace_all: true },
    ],
  };
  const result = await previewThenRun(multiEditTool, args, t, {
    path: "a.ts",
    oldText: "let a = 1;\nlet b = 2;\nlet c = 3;\nlet b2 = b;\n",
    newText: "const a = 1;\nconst b = 2;\nvar c = 3;\nvar b2 = b;\n",
  });
  assert.equal(
    result.output,
    [
      "Edited a.ts: 3 edits, 4 replacements",
      "@@ -1,4 +1,4 @@",
      "-let a = 1;",
      "-let b = 2;",
      "-let c = 3;",
      "-let b2 = b;",
      "+const a = 1;",
      "+const b = 2;",
      "+var c = 3;",
      "+var b2 = b;",
    ].join("\n"),
  );
  assert.equal(await Deno.readTextFile(path), "const a = 1;\nconst b = 2;\nvar c = 3;\nvar b2 = b;\n");
});

Deno.test("multiEditTool writes nothing when a later edit is ambiguous and names it", async () => {
  await using t = await makeTestWorkspace();
  const original = "x = 1\ny = 2\nx = 1\n";
  const path = await t.write("a.txt", original);
  const error = await rejectsWithCode(
    multiEditTool.execute({
      path: "a.txt",
      edits: [{ old_string: "y = 2", new_string: "y = 3" }, { old_string: "x = 1", new_string: "x = 9" }],
    }, t.ctx),
    "tool.edit_ambiguous",
  );
  assert.equal(
    error.message,
    'Cannot apply edits[1] to "a.txt": old_string occurs 2 times (at lines 1, 3); include more ' +
      "surrounding context to make it unique, or set replace_all to true",
  );
  assert.equal(await Deno.readTextFile(path), original);
});

Deno.test("multiEditTool sees the result of earlier edits and reports a missing match", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.txt", "alpha\nbeta\n");
  const error = await rejectsWithCode(
    multiEditTool.execute({
      path: "a.txt",
      edits: [{ old_string: "alpha", new_string: "gamma" }, { old_string: "alpha", new_string: "delta" }],
    }, t.ctx),
    "tool.edit_no_match",
  );
  assert.match(error.message, /^Cannot apply edits\[1\] to "a\.txt": old_string was not found; check/);
  assert.equal(await Deno.readTextFile(path), "alpha\nbeta\n");
});

Deno.test("multiEditTool rejects identical strings, empty edits, an empty old_string and missing files", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.txt", "content\n");
  const noop = await rejectsWithCode(
    multiEditTool.execute({
      path: "a.txt",
      edits: [{ old_string: "content", new_string: "c" }, { old_string: "x", new_string: "x" }],
    }, t.ctx),
    "tool.edit_noop",
  );
  assert.equal(noop.message, 'Cannot apply edits[1] to "a.txt": old_string and new_string are identical');
  await rejectsWithCode(multiEditTool.execute({ path: "a.txt", edits: [] }, t.ctx), "tool.invalid_args");
  assert.equal(multiEditTool.parameters.safeParse({ path: "a.txt", edits: [] }).success, false);
  const empty = await rejectsWithCode(
    multiEditTool.execute({ path: "a.txt", edits: [{ old_string: "", new_string: "x" }] }, t.ctx),
    "tool.edit_no_match",
  );
  assert.match(empty.message, /edits\[0\].*old_string is empty but the file already has content/);
  await rejectsWithCode(
    multiEditTool.execute({ path: "none.txt", edits: [{ old_string: "a", new_string: "b" }] }, t.ctx),
    "tool.not_found",
  );
  assert.equal(await Deno.readTextFile(path), "content\n");
});

Deno.test("multiEditTool creates a missing file from an empty first old_string", async () => {
  await using t = await makeTestWorkspace();
  const args = {
    path: "new/file.txt",
    edits: [{ old_string: "", new_string: "one\ntwo\n" }, { old_string: "two", new_string: "2" }],
  };
  assert.deepEqual(await multiEditTool.preview!(args, t.ctx), {
    path: "new/file.txt",
    kind: "create",
    oldText: null,
    newText: "one\n2\n",
  });
  assert.equal(
    (await multiEditTool.execute(args, t.ctx)).output,
    "Created new/file.txt with 2 edits (2 lines)",
  );
  assert.equal(await Deno.readTextFile(join(t.root, "new/file.txt")), "one\n2\n");
});

Deno.test("multiEditTool keeps CRLF, the BOM and a missing final newline", async () => {
  await using t = await makeTestWorkspace();
  const bytes = new TextEncoder().encode("\uFEFFone\r\ntwo\r\nthree");
  const path = await t.write("win.txt", bytes);
  await multiEditTool.execute({
    path: "win.txt",
    edits: [{ old_string: "one\ntwo", new_string: "1\n2" }, { old_string: "three", new_string: "3" }],
  }, t.ctx);
  assert.deepEqual(await Deno.readFile(path), new TextEncoder().encode("\uFEFF1\r\n2\r\n3"));
});

Deno.test("multiEditTool refuses paths that escape the workspace and writes nothing outside", async () => {
  await using t = await makeTestWorkspace();
  const victim = join(t.outside, "victim.txt");
  await Deno.writeTextFile(victim, "secret");
  await Deno.symlink(victim, join(t.root, "link.txt"));
  const edits = [{ old_string: "secret", new_string: "owned" }];
  await rejectsWithCode(
    multiEditTool.execute({ path: "../outside/victim.txt", edits }, t.ctx),
    "tool.path_traversal",
  );
  await rejectsWithCode(multiEditTool.execute({ path: victim, edits }, t.ctx), "tool.path_outside_workspace");
  await rejectsWithCode(
    multiEditTool.execute({ path: "link.txt", edits }, t.ctx),
    "tool.path_outside_workspace",
  );
  assert.equal(await Deno.readTextFile(victim), "secret");
  assert.deepEqual([...Deno.readDirSync(t.outside)].map((entry) => entry.name), ["victim.txt"]);
});

Deno.test("multiEditTool takes old_strings copied with read_file's line numbers, in a CRLF file too", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.txt", "one\r\ntwo\r\nthree\r\n");
  const result = await multiEditTool.execute({
    path: "a.txt",
    edits: [
      { old_string: "1\tone\r\n2\ttwo", new_string: "1\tONE\r\n2\ttwo" },
      { old_string: "three", new_string: "THREE" },
    ],
  }, t.ctx);
  assert.equal(await Deno.readTextFile(path), "ONE\r\ntwo\r\nTHREE\r\n");
  assert.match(result.output, /^Edited a\.txt: 2 edits, 2 replacements\n\(old_string matched once/);
});
