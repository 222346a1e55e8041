import assert from "node:assert/strict";
import { join } from "node:path";
import { editFileTool } from "../../../src/tool/builtin/edit_file.ts";
import { readFileTool } from "../../../src/tool/builtin/read_file.ts";
import { makeTestWorkspace, previewThenRun, rejectsWithCode } from "../_tool_context.ts";

Deno.test("editFileTool replaces one occurrence and shows a diff with line numbers", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
  const args = { path: "a.ts", old_string: "const b = 2;", new_string: "const b = 20;" };
  const result = await previewThenRun(editFileTool, args, t, {
    path: "a.ts",
    oldText: "const a = 1;\nconst b = 2;\nconst c = 3;\n",
    newText: "const a = 1;\nconst b = 20;\nconst c = 3;\n",
  });
  assert.equal(
    result.output,
    [
      "Edited a.ts: 1 replacement",
      "@@ -1,3 +1,3 @@",
      " const a = 1;",
      "-const b = 2;",
      "+const b = 20;",
      " const c = 3;",
    ].join("\n"),
  );
  assert.equal(await Deno.readTextFile(path), "const a = 1;\nconst b = 20;\nconst c = 3;\n");
});

Deno.test("editFileTool reports ambiguity with the count and lines", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.txt", "x = 1\ny\nx = 1\nz\nx = 1\n");
  const error = await rejectsWithCode(
    editFileTool.execute({ path: "a.txt", old_string: "x = 1", new_string: "x = 2" }, t.ctx),
    "tool.edit_ambiguous",
  );
  assert.equal(
    error.message,
    'Cannot edit "a.txt": old_string occurs 3 times (at lines 1, 3, 5); include more surrounding context ' +
      "to make it unique, or set replace_all to true",
  );
  const all = await editFileTool.execute(
    { path: "a.txt", old_string: "x = 1", new_string: "x = 2", replace_all: true },
    t.ctx,
  );
  assert.match(all.output, /^Edited a\.txt: 3 replacements\n/);
  assert.equal(await Deno.readTextFile(join(t.root, "a.txt")), "x = 2\ny\nx = 2\nz\nx = 2\n");
});

Deno.test("editFileTool explains a missing match and points at a whitespace-only difference", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.py", "def f():\n    if x:\n        return 1\n");
  const loose = await rejectsWithCode(
    editFileTool.execute({ path: "a.py", old_string: "if x:\n  return 1", new_string: "pass" }, t.ctx),
    "tool.edit_no_match",
  );
  assert.match(loose.message, /whitespace or indentation starts at line 2/);
  const none = await rejectsWithCode(
    editFileTool.execute({ path: "a.py", old_string: "nothing like it", new_string: "x" }, t.ctx),
    "tool.edit_no_match",
  );
  assert.match(none.message, /check whitespace and indentation/);
});

Deno.test("editFileTool rejects identical strings and missing files", async () => {
  await using t = await makeTestWorkspace();
  await rejectsWithCode(
    editFileTool.execute({ path: "a.txt", old_string: "a", new_string: "a" }, t.ctx),
    "tool.edit_noop",
  );
  await rejectsWithCode(
    editFileTool.execute({ path: "missing.txt", old_string: "a", new_string: "b" }, t.ctx),
    "tool.not_found",
  );
});

Deno.test("editFileTool creates a missing file from an empty old_string only", async () => {
  await using t = await makeTestWorkspace();
  const args = { path: "new/file.txt", old_string: "", new_string: "hello\n" };
  assert.deepEqual(await editFileTool.preview!(args, t.ctx), {
    path: "new/file.txt",
    kind: "create",
    oldText: null,
    newText: "hello\n",
  });
  assert.equal((await editFileTool.execute(args, t.ctx)).output, "Created new/file.txt (1 lines)");
  assert.equal(await Deno.readTextFile(join(t.root, "new/file.txt")), "hello\n");
  await rejectsWithCode(editFileTool.execute(args, t.ctx), "tool.edit_no_match");
});

Deno.test("editFileTool keeps CRLF line endings, the final newline state and the BOM", async () => {
  await using t = await makeTestWorkspace();
  const crlf = await t.write("win.txt", "one\r\ntwo\r\nthree\r\n");
  await editFileTool.execute({ path: "win.txt", old_string: "one\ntwo", new_string: "1\n2\n2.5" }, t.ctx);
  assert.equal(await Deno.readTextFile(crlf), "1\r\n2\r\n2.5\r\nthree\r\n");
  const bare = await t.write("nonl.txt", "a\nb");
  await editFileTool.execute({ path: "nonl.txt", old_string: "b", new_string: "c" }, t.ctx);
  assert.equal(await Deno.readTextFile(bare), "a\nc");
  const bom = await t.write("bom.txt", "\uFEFFkey=old\n");
  await editFileTool.execute({ path: "bom.txt", old_string: "old", new_string: "new" }, t.ctx);
  assert.deepEqual(
    await Deno.readFile(bom),
    new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("key=new\n")]),
  );
});

Deno.test("editFileTool keeps a UTF-16 file in UTF-16", async () => {
  await using t = await makeTestWorkspace();
  const encode = (text: string) => {
    const out = new Uint8Array(2 + text.length * 2);
    out.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      new DataView(out.buffer).setUint16(2 + i * 2, text.charCodeAt(i), true);
    }
    return out;
  };
  const path = await t.write("u16.txt", encode("alpha\nbeta\n"));
  await editFileTool.execute({ path: "u16.txt", old_string: "beta", new_string: "gamma" }, t.ctx);
  assert.deepEqual(await Deno.readFile(path), encode("alpha\ngamma\n"));
});

Deno.test("editFileTool refuses symlinks out, binaries and a swap after preview", async () => {
  await using t = await makeTestWorkspace();
  await Deno.writeTextFile(join(t.outside, "victim.txt"), "secret");
  await Deno.symlink(join(t.outside, "victim.txt"), join(t.root, "link.txt"));
  await rejectsWithCode(
    editFileTool.execute({ path: "link.txt", old_string: "secret", new_string: "x" }, t.ctx),
    "tool.path_outside_workspace",
  );
  await t.write("bin.dat", new Uint8Array([0, 1, 2, 3]));
  await rejectsWithCode(
    editFileTool.execute({ path: "bin.dat", old_string: "a", new_string: "b" }, t.ctx),
    "tool.unsupported_file",
  );
  const path = await t.write("a.txt", "hello");
  const args = { path: "a.txt", old_string: "hello", new_string: "bye" };
  await editFileTool.preview!(args, t.ctx);
  await Deno.remove(path);
  await Deno.symlink(join(t.outside, "victim.txt"), path);
  await rejectsWithCode(editFileTool.execute(args, t.ctx), "tool.path_outside_workspace");
  assert.equal(await Deno.readTextFile(join(t.outside, "victim.txt")), "secret");
});

Deno.test("editFileTool takes an old_string copied from read_file with its line numbers", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.ts", "function f() {\n\tconst a = 1;\n\n\treturn a;\n}\n");
  const read = await readFileTool.execute({ path: "a.ts" }, t.ctx);
  const copied = read.output.split("\n").slice(1, 4).join("\n");
  assert.equal(copied, "2\t\tconst a = 1;\n3\t\n4\t\treturn a;");
  const result = await editFileTool.execute({
    path: "a.ts",
    old_string: copied,
    new_string: "2\t\tconst a = 2;\n3\t\n4\t\treturn a;",
  }, t.ctx);
  assert.equal(await Deno.readTextFile(path), "function f() {\n\tconst a = 2;\n\n\treturn a;\n}\n");
  assert.match(
    result.output,
    /^Edited a\.ts: 1 replacement\n\(old_string matched once read_file's line-number/,
  );
  // A blank line copied without its tab, the older padded "→" gutter, and a new_string without gutters.
  await editFileTool.execute({
    path: "a.ts",
    old_string: " 2→\tconst a = 2;\n 3\n 4→\treturn a;",
    new_string: "\tconst a = 3;\n\treturn a;",
  }, t.ctx);
  assert.equal(await Deno.readTextFile(path), "function f() {\n\tconst a = 3;\n\treturn a;\n}\n");
});

Deno.test("editFileTool strips no gutter when the text matches as it stands or the numbers do not follow", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("table.tsv", "1\tone\n2\ttwo\n3\tthree\n");
  await editFileTool.execute({ path: "table.tsv", old_string: "2\ttwo", new_string: "2\tTWO" }, t.ctx);
  assert.equal(await Deno.readTextFile(path), "1\tone\n2\tTWO\n3\tthree\n");
  await t.write("b.txt", "alpha\nbeta\n");
  await rejectsWithCode(
    editFileTool.execute({ path: "b.txt", old_string: "1\talpha\n5\tbeta", new_string: "x" }, t.ctx),
    "tool.edit_no_match",
  );
  const error = await rejectsWithCode(
    editFileTool.execute({ path: "b.txt", old_string: "1\talpha\n2\tbeta", new_string: "1\tA\nB" }, t.ctx),
    "tool.edit_gutter",
  );
  assert.match(error.message, /resend both without the line-number prefixes/);
  assert.equal(await Deno.readTextFile(join(t.root, "b.txt")), "alpha\nbeta\n");
});
