import assert from "node:assert/strict";
import { join } from "node:path";
import { lsTool } from "../../../src/tool/builtin/ls.ts";
import { makeTestWorkspace, rejectsWithCode } from "../_tool_context.ts";

Deno.test("lsTool lists dirs, files with sizes and symlinks, sorted", async () => {
  await using t = await makeTestWorkspace({ forbidRead: [".env"] });
  await t.write("b.txt", "12345");
  await t.write("a/inner.txt", "x");
  await t.write(".env", "SECRET");
  await t.write(".git/HEAD", "ref");
  await t.write("node_modules/x/index.js", "");
  await Deno.symlink("b.txt", join(t.root, "c_link"));
  const result = await lsTool.execute({}, t.ctx);
  assert.deepEqual(result, {
    output: ["a/", "b.txt\t5", "c_link@ -> b.txt", "(not listed: .git/, node_modules/)"].join("\n"),
    truncated: undefined,
    data: { kind: "list", path: ".", entries: 3 },
  });
});

Deno.test("lsTool lists recursively down to the depth", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a/b/c/d/e.txt", "e");
  await t.write("a/top.txt", "tt");
  const deep = await lsTool.execute({ path: "a", recursive: true }, t.ctx);
  assert.equal(deep.output, ["b/", "b/c/", "b/c/d/", "top.txt\t2"].join("\n"));
  const shallow = await lsTool.execute({ path: "a", recursive: true, depth: 1 }, t.ctx);
  assert.equal(shallow.output, ["b/", "top.txt\t2"].join("\n"));
  const full = await lsTool.execute({ recursive: true, depth: 5 }, t.ctx);
  assert.match(full.output, /^a\/b\/c\/d\/e\.txt\t1$/m);
});

Deno.test("lsTool caps the listing at 1000 entries and counts the rest", async () => {
  await using t = await makeTestWorkspace();
  await Promise.all(Array.from({ length: 1005 }, (_, i) => t.write(`f${String(i).padStart(4, "0")}`, "")));
  const result = await lsTool.execute({}, t.ctx);
  const lines = result.output.split("\n");
  assert.equal(lines.length, 1001);
  assert.equal(lines[999], "f0999\t0");
  assert.equal(lines[1000], "... (5 more entries not shown)");
  assert.equal(result.truncated, true);
});

Deno.test("lsTool reports empty dirs, files, missing and escaping paths", async () => {
  await using t = await makeTestWorkspace({ forbidRead: ["hidden"] });
  await Deno.mkdir(join(t.root, "empty"));
  await Deno.mkdir(join(t.root, "hidden"));
  await t.write("f.txt", "");
  await Deno.symlink(t.outside, join(t.root, "out"));
  assert.equal((await lsTool.execute({ path: "empty" }, t.ctx)).output, 'Directory "empty" is empty');
  await rejectsWithCode(lsTool.execute({ path: "f.txt" }, t.ctx), "tool.not_a_directory");
  await rejectsWithCode(lsTool.execute({ path: "nope" }, t.ctx), "tool.not_found");
  await rejectsWithCode(lsTool.execute({ path: "hidden" }, t.ctx), "tool.not_found");
  await rejectsWithCode(lsTool.execute({ path: "out" }, t.ctx), "tool.path_outside_workspace");
  await rejectsWithCode(lsTool.execute({ path: ".." }, t.ctx), "tool.path_traversal");
});
