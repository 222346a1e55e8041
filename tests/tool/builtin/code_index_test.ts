import assert from "node:assert/strict";
import { join } from "node:path";
import { codeIndexTool } from "../../../src/tool/builtin/code_index.ts";
import { makeTestWorkspace, NoRgSandbox, rejectsWithCode, type TestWorkspace } from "../_tool_context.ts";

async function seed(t: TestWorkspace): Promise<void> {
  await t.write(
    "src/a.ts",
    "export function parseConfig() {}\n\nexport class Parser {\n  parse() {}\n}\n\nexport const LIMIT = 1;\n",
  );
  await t.write(
    "go/b.go",
    "package b\n\nfunc ParseFlags() {}\n\ntype Server struct{}\n\nfunc (s *Server) Start() {}\n",
  );
  await t.write(
    "py/c.py",
    "def parse_args():\n    pass\n\nclass Options:\n    def parse(self):\n        pass\n",
  );
}

function run(t: TestWorkspace, args: Record<string, unknown>): Promise<string> {
  const typed = args as Parameters<typeof codeIndexTool.execute>[0];
  return codeIndexTool.execute(typed, t.ctx).then((result) => result.output);
}

Deno.test("codeIndexTool search ranks exact names, then prefixes, case-sensitive first", async () => {
  await using t = await makeTestWorkspace();
  await seed(t);
  assert.equal(
    await run(t, { action: "search", query: "parse" }),
    [
      "py/c.py:5 method parse (Options)",
      "src/a.ts:4 method parse (Parser)",
      "py/c.py:1 function parse_args",
      "src/a.ts:1 function parseConfig",
      "go/b.go:3 function ParseFlags",
      "src/a.ts:3 class Parser",
    ].join("\n"),
  );
  assert.equal(await run(t, { action: "search", query: "Server.st" }), "go/b.go:7 method Start (Server)");
  assert.equal(await run(t, { action: "search", query: "zzz" }), 'No symbols match "zzz" in 3 indexed files');
});

Deno.test("codeIndexTool search filters by kind, with type covering structs and classes", async () => {
  await using t = await makeTestWorkspace();
  await seed(t);
  assert.equal(
    await run(t, { action: "search", query: "pars", kind: "method" }),
    "py/c.py:5 method parse (Options)\nsrc/a.ts:4 method parse (Parser)",
  );
  assert.equal(
    await run(t, { action: "search", kind: "type" }),
    "go/b.go:5 struct Server\npy/c.py:4 class Options\nsrc/a.ts:3 class Parser",
  );
  assert.equal(await run(t, { action: "search", query: "LIM", kind: "const" }), "src/a.ts:7 const LIMIT");
});

Deno.test("codeIndexTool search honours limit and path", async () => {
  await using t = await makeTestWorkspace();
  await seed(t);
  const result = await codeIndexTool.execute({ action: "search", query: "pars", limit: 2 }, t.ctx);
  assert.deepEqual(result, {
    output: [
      "py/c.py",
      "1 function parse_args",
      "5 method parse (Options)",
      "",
      "… 4 more; narrow with a longer query, kind or path, or raise limit",
    ].join("\n"),
    data: { kind: "symbols", matches: 6 },
    truncated: true,
  });
  assert.equal(
    await run(t, { action: "search", query: "pars", path: "src" }),
    "src/a.ts\n1 function parseConfig\n4 method parse (Parser)\n3 class Parser",
  );
});

Deno.test("codeIndexTool file lists the symbols of one file", async () => {
  await using t = await makeTestWorkspace();
  await seed(t);
  assert.equal(
    await run(t, { action: "file", path: "src/a.ts" }),
    "src/a.ts\n1 function parseConfig\n3 class Parser\n4 method parse (Parser)\n7 const LIMIT",
  );
  assert.equal(
    await run(t, { action: "file", path: "go/b.go", kind: "function" }),
    "go/b.go:3 function ParseFlags",
  );
  await t.write("empty.js", "console.log(1);\n");
  assert.equal(await run(t, { action: "file", path: "empty.js" }), "No symbols in empty.js");
});

Deno.test("codeIndexTool re-parses only files whose mtime or size changed", async () => {
  await using t = await makeTestWorkspace();
  await seed(t);
  const first = await run(t, { action: "stats" });
  assert.equal(
    first,
    "3 files indexed (go 1, python 1, typescript 1), 10 symbols (class 2, const 1, function 3, method 3, " +
      "struct 1)\nParsed 3 new or changed files; skipped 0 larger than 1 MB and 0 unreadable",
  );
  assert.match(await run(t, { action: "stats" }), /\nParsed 0 new or changed files;/);
  const path = join(t.root, "src/a.ts");
  await Deno.writeTextFile(path, "export function renamedConfig() {}\n");
  await Deno.utime(path, new Date(), new Date(Date.now() + 5000));
  assert.equal(await run(t, { action: "search", query: "renamed" }), "src/a.ts:1 function renamedConfig");
  assert.equal(
    await run(t, { action: "search", query: "parseC" }),
    'No symbols match "parseC" in 3 indexed files',
  );
  await Deno.remove(join(t.root, "py/c.py"));
  assert.match(await run(t, { action: "stats" }), /^2 files indexed .*\nParsed 0 new or changed files;/);
});

for (const walker of ["the default sandbox", "the TypeScript walker"]) {
  Deno.test(`codeIndexTool skips gitignored files, node_modules and files over 1 MB (${walker})`, async () => {
    const sandbox = walker === "the TypeScript walker" ? new NoRgSandbox() : undefined;
    await using t = await makeTestWorkspace({ sandbox });
    await t.write(".gitignore", "gen/\nsecret.ts\n");
    await t.write("keep.ts", "export function keepMe() {}\n");
    await t.write("gen/out.ts", "export function keepGenerated() {}\n");
    await t.write("secret.ts", "export function keepSecret() {}\n");
    await t.write("node_modules/pkg/index.js", "function keepModule() {}\n");
    await t.write("big.ts", `export function keepBig() {}\n${"// pad\n".repeat(160_000)}`);
    assert.equal(await run(t, { action: "search", query: "keep" }), "keep.ts:1 function keepMe");
    assert.match(await run(t, { action: "stats" }), /skipped 1 larger than 1 MB/);
  });
}

Deno.test("codeIndexTool explains bad calls", async () => {
  await using t = await makeTestWorkspace();
  await t.write("notes.md", "# hi\n");
  await rejectsWithCode(run(t, { action: "search" }), "tool.invalid_args");
  await rejectsWithCode(run(t, { action: "file" }), "tool.invalid_args");
  const unsupported = await rejectsWithCode(
    run(t, { action: "file", path: "notes.md" }),
    "tool.unsupported_language",
  );
  assert.match(unsupported.message, /^Cannot list symbols of "notes\.md": only TypeScript/);
  await rejectsWithCode(run(t, { action: "file", path: "." }), "tool.not_a_file");
  await rejectsWithCode(run(t, { action: "search", query: "x", path: "missing" }), "tool.not_found");
});
