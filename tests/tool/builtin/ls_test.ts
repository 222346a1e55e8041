import assert from "node:assert/strict";
import { join } from "node:path";
import { LS_SIZE_FROM_BYTES, lsTool } from "../../../src/tool/builtin/ls.ts";
import { makeTestWorkspace, rejectsWithCode } from "../_tool_context.ts";

/** Every entry's full path, read back from the "dir/:" sections: nothing the flat listing held is lost. */
function listedPaths(output: string): string[] {
  return output.split("\n\n").flatMap((block) => {
    const lines = block.split("\n");
    const dir = lines[0]!.endsWith("/:") ? lines.shift()!.slice(0, -1) : "";
    return lines.filter((line) => !line.startsWith("(")).map((line) => dir + line.split("\t")[0]);
  });
}

Deno.test("lsTool lists dirs, files (sizes from 16 KB) and symlinks, sorted", async () => {
  await using t = await makeTestWorkspace({ forbidRead: [".env"] });
  await t.write("b.txt", "12345");
  await t.write("big.txt", "x".repeat(LS_SIZE_FROM_BYTES));
  await t.write("a/inner.txt", "x");
  await t.write(".env", "SECRET");
  await t.write(".git/HEAD", "ref");
  await t.write("node_modules/x/index.js", "");
  await Deno.symlink("b.txt", join(t.root, "c_link"));
  const result = await lsTool.execute({}, t.ctx);
  assert.deepEqual(result, {
    output: ["a/", "b.txt", "big.txt\t16384", "c_link@ -> b.txt", "(not listed: .git/, node_modules/)"].join(
      "\n",
    ),
    truncated: undefined,
    data: { kind: "list", path: ".", entries: 4 },
  });
});

Deno.test("lsTool lists recursively down to the depth", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a/b/c/d/e.txt", "e");
  await t.write("a/top.txt", "tt");
  await t.write("a/b/node_modules/m.js", "");
  const deep = await lsTool.execute({ path: "a", recursive: true }, t.ctx);
  assert.equal(deep.output, "b/\ntop.txt\n\nb/:\nc/\n\nb/c/:\nd/\n(not listed: b/node_modules/)");
  const shallow = await lsTool.execute({ path: "a", recursive: true, depth: 1 }, t.ctx);
  assert.equal(shallow.output, ["b/", "top.txt"].join("\n"));
  const full = await lsTool.execute({ recursive: true, depth: 5 }, t.ctx);
  assert.match(full.output, /^a\/b\/c\/d\/:\ne\.txt$/m);
  assert.deepEqual(listedPaths(full.output), [
    "a/",
    "a/b/",
    "a/top.txt",
    "a/b/c/",
    "a/b/c/d/",
    "a/b/c/d/e.txt",
  ]);
});

Deno.test("lsTool caps the listing at 1000 entries and counts the rest", async () => {
  await using t = await makeTestWorkspace();
  await Promise.all(Array.from({ length: 1005 }, (_, i) => t.write(`f${String(i).padStart(4, "0")}`, "")));
  const result = await lsTool.execute({}, t.ctx);
  const lines = result.output.split("\n");
  assert.equal(lines.length, 1001);
  assert.equal(lines[999], "f0999");
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
