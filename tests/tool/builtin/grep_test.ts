import assert from "node:assert/strict";
import { join } from "node:path";
import { grepTool } from "../../../src/tool/builtin/grep.ts";
import {
  makeTestWorkspace,
  NoRgSandbox,
  rejectsWithCode,
  SEARCH_BACKENDS,
  type TestWorkspace,
} from "../_tool_context.ts";

async function seed(t: TestWorkspace): Promise<void> {
  await t.write(".gitignore", "dist/\n*.tmp\n");
  await t.write("src/a.ts", "const needle = 1;\nother\nNeedle again\n");
  await t.write("src/b.go", "package b // needle\n");
  await t.write("src/win.txt", "crlf needle\r\nnext\r\n");
  await t.write("dist/out.ts", "needle in build output\n");
  await t.write("notes.tmp", "needle in temp\n");
  await t.write("node_modules/x/i.ts", "needle in deps\n");
  await t.write(".git/info", "needle in git\n");
  await t.write("bin.dat", new Uint8Array([...new TextEncoder().encode("needle"), 0, 1, 2]));
  await t.write("secret/key.txt", "needle secret\n");
  await Deno.writeTextFile(join(t.outside, "o.txt"), "needle outside\n");
  await Deno.symlink(join(t.outside, "o.txt"), join(t.root, "link.txt"));
}

for (const backend of SEARCH_BACKENDS) {
  Deno.test(`grepTool finds matches and skips ignored, binary, hidden paths (${backend.name})`, async () => {
    const sandbox = backend.make();
    await using t = await makeTestWorkspace({ sandbox, forbidRead: ["secret"] });
    await seed(t);
    const result = await grepTool.execute({ pattern: "needle" }, t.ctx);
    assert.deepEqual(result, {
      output:
        "src/a.ts\n1:const needle = 1;\n\nsrc/b.go\n1:package b // needle\n\nsrc/win.txt\n1:crlf needle",
      data: { kind: "search", pattern: "needle", matches: 3, files: 3 },
    });
    assert.equal(
      sandbox.argvCalls.some((argv) => argv[0] === "rg" && argv.includes("--json")),
      backend.usesRg,
    );
  });

  Deno.test(`grepTool supports case, glob, output modes and anchors on CRLF (${backend.name})`, async () => {
    await using t = await makeTestWorkspace({ sandbox: backend.make(), forbidRead: ["secret"] });
    await seed(t);
    const ci = await grepTool.execute({ pattern: "needle", case_insensitive: true, glob: "*.ts" }, t.ctx);
    assert.equal(ci.output, "src/a.ts\n1:const needle = 1;\n3:Needle again");
    const files = await grepTool.execute({ pattern: "needle", output_mode: "files_with_matches" }, t.ctx);
    assert.equal(files.output, "src/a.ts\nsrc/b.go\nsrc/win.txt");
    const count = await grepTool.execute({ pattern: "(?i)needle", output_mode: "count", path: "src" }, t.ctx);
    assert.equal(count.output, "src/a.ts:2\nsrc/b.go:1\nsrc/win.txt:1");
    const anchored = await grepTool.execute({ pattern: "needle$", path: "src/win.txt" }, t.ctx);
    assert.equal(anchored.output, "src/win.txt\n1:crlf needle");
    const none = await grepTool.execute({ pattern: "absent_word" }, t.ctx);
    assert.equal(none.output, 'No matches for "absent_word" in .');
  });

  Deno.test(`grepTool prints context groups (${backend.name})`, async () => {
    await using t = await makeTestWorkspace({ sandbox: backend.make() });
    await t.write("c.txt", ["a", "hit 1", "b", "c", "d", "e", "hit 2", "f"].join("\n") + "\n");
    await t.write("d.txt", "hit 3\nz\n");
    const result = await grepTool.execute({ pattern: "hit", context: 1 }, t.ctx);
    assert.equal(
      result.output,
      ["c.txt", "1-a", "2:hit 1", "3-b", "--", "6-e", "7:hit 2", "8-f", "", "d.txt", "1:hit 3", "2-z"].join(
        "\n",
      ),
    );
  });

  Deno.test(`grepTool stops at 200 matches (${backend.name})`, async () => {
    await using t = await makeTestWorkspace({ sandbox: backend.make() });
    await t.write("a.txt", Array.from({ length: 150 }, (_, i) => `match ${i}`).join("\n"));
    await t.write("b.txt", Array.from({ length: 150 }, (_, i) => `match ${i}`).join("\n"));
    const result = await grepTool.execute({ pattern: "match" }, t.ctx);
    const lines = result.output.split("\n");
    assert.equal(lines.length, 204);
    assert.deepEqual(lines.slice(150, 154), ["150:match 149", "", "b.txt", "1:match 0"]);
    assert.equal(lines[202], "50:match 49");
    assert.equal(lines[203], "... (truncated at 200 matches)");
    assert.equal(result.truncated, true);
  });

  Deno.test(`grepTool reports invalid patterns and accepts JS-only look-around (${backend.name})`, async () => {
    await using t = await makeTestWorkspace({ sandbox: backend.make() });
    await t.write("a.txt", "foobar\nfoobaz\n");
    await rejectsWithCode(grepTool.execute({ pattern: "(unclosed" }, t.ctx), "tool.invalid_pattern");
    const look = await grepTool.execute({ pattern: "foo(?=baz)" }, t.ctx);
    assert.equal(look.output, "a.txt\n2:foobaz");
  });
}

Deno.test("grepTool refuses escaping and forbidden search paths", async () => {
  await using t = await makeTestWorkspace({ forbidRead: ["secret"] });
  await seed(t);
  await rejectsWithCode(grepTool.execute({ pattern: "x", path: "../outside" }, t.ctx), "tool.path_traversal");
  await rejectsWithCode(
    grepTool.execute({ pattern: "x", path: t.outside }, t.ctx),
    "tool.path_outside_workspace",
  );
  await rejectsWithCode(
    grepTool.execute({ pattern: "x", path: "link.txt" }, t.ctx),
    "tool.path_outside_workspace",
  );
  await rejectsWithCode(grepTool.execute({ pattern: "x", path: "secret" }, t.ctx), "tool.not_found");
  await rejectsWithCode(grepTool.execute({ pattern: "x", path: "missing" }, t.ctx), "tool.not_found");
});

Deno.test("grepTool stops when the signal is aborted", async () => {
  await using t = await makeTestWorkspace({ sandbox: new NoRgSandbox() });
  await t.write("a.txt", "needle\n");
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(grepTool.execute({ pattern: "needle" }, { ...t.ctx, signal: controller.signal }));
});
