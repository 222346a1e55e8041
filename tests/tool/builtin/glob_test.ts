import assert from "node:assert/strict";
import { join } from "node:path";
import { globTool } from "../../../src/tool/builtin/glob.ts";
import { makeTestWorkspace, rejectsWithCode, SEARCH_BACKENDS, type TestWorkspace } from "../_tool_context.ts";

async function seed(t: TestWorkspace): Promise<void> {
  await t.write(".gitignore", "*.log\nbuild/\n!keep.log\n");
  await t.write("a.ts", "");
  await t.write("debug.log", "");
  await t.write("keep.log", "");
  await t.write("build/out.ts", "");
  await t.write("src/b.ts", "");
  await t.write("src/gen/.gitignore", "*.gen.ts\n");
  await t.write("src/gen/x.gen.ts", "");
  await t.write("src/gen/y.ts", "");
  await t.write(".git/config.ts", "");
  await t.write("node_modules/m/index.ts", "");
  await t.write(".hidden/h.ts", "");
  await t.write("secret/s.ts", "");
  await Deno.writeTextFile(join(t.outside, "o.ts"), "");
  await Deno.symlink(t.outside, join(t.root, "out_link"));
}

async function setMtime(t: TestWorkspace, rel: string, seconds: number): Promise<void> {
  await Deno.utime(join(t.root, rel), seconds, seconds);
}

for (const backend of SEARCH_BACKENDS) {
  Deno.test(`globTool respects .gitignore, skips .git and symlinks (${backend.name})`, async () => {
    const sandbox = backend.make();
    await using t = await makeTestWorkspace({ sandbox, forbidRead: ["secret"] });
    await seed(t);
    const result = await globTool.execute({ pattern: "**/*.ts" }, t.ctx);
    assert.deepEqual(result.output.split("\n").sort(), [".hidden/h.ts", "a.ts", "src/b.ts", "src/gen/y.ts"]);
    const logs = await globTool.execute({ pattern: "*.log" }, t.ctx);
    assert.equal(logs.output, "keep.log");
    assert.equal(
      sandbox.argvCalls.some((argv) => argv[0] === "rg" && argv.includes("--files")),
      backend.usesRg,
    );
  });

  Deno.test(`globTool sorts by modification time and caps at 200 (${backend.name})`, async () => {
    await using t = await makeTestWorkspace({ sandbox: backend.make() });
    for (let i = 0; i < 205; i++) {
      await t.write(`f/${i}.txt`, "");
      await setMtime(t, `f/${i}.txt`, 1_000_000 + i);
    }
    const result = await globTool.execute({ pattern: "*.txt", path: "f" }, t.ctx);
    const [listing, more] = result.output.split("\n\n");
    const lines = listing!.split("\n");
    assert.equal(lines.length, 201);
    assert.deepEqual(lines.slice(0, 4), ["f/:", "204.txt", "203.txt", "202.txt"]);
    assert.equal(lines[200], "5.txt");
    assert.equal(more, "(5 more not shown)");
  });

  Deno.test(`globTool matches anchored patterns relative to path (${backend.name})`, async () => {
    await using t = await makeTestWorkspace({ sandbox: backend.make() });
    await t.write("src/a.ts", "");
    await t.write("src/sub/b.ts", "");
    await t.write("src/sub/c.json", "");
    await setMtime(t, "src/a.ts", 3_000);
    await setMtime(t, "src/sub/b.ts", 2_000);
    await setMtime(t, "src/sub/c.json", 1_000);
    assert.equal((await globTool.execute({ pattern: "src/*.ts" }, t.ctx)).output, "src/a.ts");
    assert.equal(
      (await globTool.execute({ pattern: "sub/*.{ts,json}", path: "src" }, t.ctx)).output,
      "src/sub/:\nb.ts\nc.json",
    );
    assert.equal(
      (await globTool.execute({ pattern: "src/**" }, t.ctx)).output,
      "src/a.ts\n\nsrc/sub/:\nb.ts\nc.json",
    );
    assert.equal((await globTool.execute({ pattern: "*.md" }, t.ctx)).output, 'No files match "*.md" in .');
  });
}

Deno.test("globTool refuses bad paths and patterns", async () => {
  await using t = await makeTestWorkspace();
  await t.write("f.txt", "");
  await rejectsWithCode(globTool.execute({ pattern: "*", path: "../outside" }, t.ctx), "tool.path_traversal");
  await rejectsWithCode(
    globTool.execute({ pattern: "*", path: t.outside }, t.ctx),
    "tool.path_outside_workspace",
  );
  await rejectsWithCode(globTool.execute({ pattern: "*", path: "nope" }, t.ctx), "tool.not_found");
  await rejectsWithCode(globTool.execute({ pattern: "*", path: "f.txt" }, t.ctx), "tool.not_a_directory");
  await rejectsWithCode(globTool.execute({ pattern: "../*" }, t.ctx), "tool.path_traversal");
  await rejectsWithCode(globTool.execute({ pattern: "!*.ts" }, t.ctx), "tool.invalid_pattern");
});
