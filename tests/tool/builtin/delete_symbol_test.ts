import assert from "node:assert/strict";
import { join } from "node:path";
import { deleteSymbolTool } from "../../../src/tool/builtin/delete_symbol.ts";
import { makeTestWorkspace, previewThenRun, rejectsWithCode } from "../_tool_context.ts";

const TS = `import { x } from "./x.ts";

/** Adds. */
export function add(a: number, b: number): number {
  return a + b;
}

export interface Shape {
  area(): number;
}

export type Id = string | number;

enum Color { Red, Green }

export const LIMIT = 10; // trailing note

@sealed
export class Circle implements Shape {
  radius = 1;

  /** Area. */
  @memo
  area(): number {
    return 3;
  }

  grow() {}
}
`;

function without(text: string, ...lines: number[]): string {
  return text.split("\n").filter((_, index) => !lines.includes(index + 1)).join("\n");
}

Deno.test("deleteSymbolTool deletes a function with its doc comment and one blank line", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.ts", TS);
  const args = { path: "a.ts", name: "add" };
  const result = await previewThenRun(deleteSymbolTool, args, t, {
    path: "a.ts",
    oldText: TS,
    newText: without(TS, 3, 4, 5, 6, 7),
  });
  assert.equal(
    result.output,
    [
      'Deleted function "add" from a.ts (lines 3-7)',
      "@@ -1,10 +1,5 @@",
      ' import { x } from "./x.ts";',
      " ",
      "-/** Adds. */",
      "-export function add(a: number, b: number): number {",
      "-  return a + b;",
      "-}",
      "-",
      " export interface Shape {",
      "   area(): number;",
      " }",
    ].join("\n"),
  );
  assert.equal(await Deno.readTextFile(path), without(TS, 3, 4, 5, 6, 7));
});

Deno.test("deleteSymbolTool deletes interfaces, types, enums, exported consts and classes", async () => {
  await using t = await makeTestWorkspace();
  const cases: [string, number[]][] = [
    ["Shape", [8, 9, 10, 11]],
    ["Id", [12, 13]],
    ["Color", [14, 15]],
    ["LIMIT", [16, 17]],
    ["Circle", [17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]],
  ];
  const results: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [name, lines] of cases) {
    const path = await t.write("a.ts", TS);
    await deleteSymbolTool.execute({ path: "a.ts", name }, t.ctx);
    results[name] = await Deno.readTextFile(path);
    expected[name] = without(TS, ...lines);
  }
  assert.deepEqual(results, expected);
});

Deno.test("deleteSymbolTool deletes a class method given as parent or Parent.name", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("a.ts", TS);
  const result = await deleteSymbolTool.execute({ path: "a.ts", name: "area", parent: "Circle" }, t.ctx);
  assert.match(result.output, /^Deleted method "area" of Circle from a\.ts \(lines 22-27\)\n/);
  assert.equal(await Deno.readTextFile(path), without(TS, 22, 23, 24, 25, 26, 27));
  await deleteSymbolTool.execute({ path: "a.ts", name: "Circle.grow" }, t.ctx);
  assert.equal(await Deno.readTextFile(path), without(TS, 21, 22, 23, 24, 25, 26, 27, 28));
});

Deno.test("deleteSymbolTool deletes Go funcs, methods by receiver, types and grouped specs", async () => {
  await using t = await makeTestWorkspace();
  const go = [
    "package main", //   1
    "", //               2
    "// Run runs.", //   3
    "func Run() {}", //  4
    "", //               5
    "// Start starts.", // 6
    "func (s *Server) Start() {}", // 7
    "", //               8
    "func Start() {}", // 9
    "", //               10
    "type Server struct{ port int }", // 11
    "", //               12
    "var (", //          13
    "\tx = 1", //        14
    "\t// y doc", //     15
    "\ty = 2", //        16
    ")", //              17
    "",
  ].join("\n");
  const path = await t.write("main.go", go);
  const cases: [Record<string, string>, number[]][] = [
    [{ name: "Run" }, [3, 4, 5]],
    [{ name: "Start", parent: "Server" }, [6, 7, 8]],
    [{ name: "Start", kind: "function" }, [9, 10]],
    [{ name: "Server", kind: "type" }, [11, 12]],
    [{ name: "y" }, [15, 16]],
  ];
  const results: string[] = [];
  const expected: string[] = [];
  for (const [args, lines] of cases) {
    await Deno.writeTextFile(path, go);
    await deleteSymbolTool.execute({ path: "main.go", name: "", ...args }, t.ctx);
    results.push(await Deno.readTextFile(path));
    expected.push(without(go, ...lines));
  }
  assert.deepEqual(results, expected);
});

Deno.test("deleteSymbolTool deletes a Python method with its decorator", async () => {
  await using t = await makeTestWorkspace();
  const py =
    "class Box:\n    @property\n    def get(self):\n        return 1\n\n    def put(self):\n        pass\n";
  const path = await t.write("box.py", py);
  await deleteSymbolTool.execute({ path: "box.py", name: "get" }, t.ctx);
  assert.equal(await Deno.readTextFile(path), "class Box:\n    def put(self):\n        pass\n");
});

Deno.test("deleteSymbolTool lists candidates when the name is ambiguous", async () => {
  await using t = await makeTestWorkspace();
  const text = "function start() {}\n\nclass Server {\n  start() {}\n}\n";
  const path = await t.write("a.js", text);
  const error = await rejectsWithCode(
    deleteSymbolTool.execute({ path: "a.js", name: "start" }, t.ctx),
    "tool.symbol_ambiguous",
  );
  assert.equal(
    error.message,
    'Cannot delete "start" in "a.js": 2 declarations match (start (function, line 1), ' +
      "Server.start (method, line 4)); pass kind or parent to pick one, or use delete_range",
  );
  assert.equal(await Deno.readTextFile(path), text);
  await deleteSymbolTool.execute({ path: "a.js", name: "start", kind: "function" }, t.ctx);
  assert.equal(await Deno.readTextFile(path), "class Server {\n  start() {}\n}\n");
});

Deno.test("deleteSymbolTool lists the available symbols when nothing matches", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.ts", TS);
  const error = await rejectsWithCode(
    deleteSymbolTool.execute({ path: "a.ts", name: "nope" }, t.ctx),
    "tool.symbol_not_found",
  );
  assert.equal(
    error.message,
    'Cannot delete "nope" in "a.ts": no declaration has that name; top-level symbols: add (function, line 4), ' +
      "Shape (interface, line 8), Id (type, line 12), Color (enum, line 14), LIMIT (const, line 16), " +
      "Circle (class, line 19)",
  );
  const member = await rejectsWithCode(
    deleteSymbolTool.execute({ path: "a.ts", name: "radius", parent: "Circle" }, t.ctx),
    "tool.symbol_not_found",
  );
  assert.match(member.message, /members of "Circle": Circle\.area \(method, line 24\), Circle\.grow/);
  const wrongKind = await rejectsWithCode(
    deleteSymbolTool.execute({ path: "a.ts", name: "add", kind: "class" }, t.ctx),
    "tool.symbol_not_found",
  );
  assert.match(wrongKind.message, /: no class has that name; /);
});

Deno.test("deleteSymbolTool refuses unsupported languages and points to delete_range", async () => {
  await using t = await makeTestWorkspace();
  await t.write("lib.rs", "fn main() {}\n");
  await t.write("a.rb", "def x; end\n");
  const rust = await rejectsWithCode(
    deleteSymbolTool.execute({ path: "lib.rs", name: "main" }, t.ctx),
    "tool.unsupported_language",
  );
  assert.equal(
    rust.message,
    'Cannot delete a symbol in "lib.rs": rust is not supported (TypeScript, JavaScript, Go and Python are); ' +
      "use delete_range or edit_file instead",
  );
  const ruby = await rejectsWithCode(
    deleteSymbolTool.execute({ path: "a.rb", name: "x" }, t.ctx),
    "tool.unsupported_language",
  );
  assert.match(ruby.message, /"a\.rb": this file type is not supported .*use delete_range/);
});

Deno.test("deleteSymbolTool keeps CRLF line endings and a BOM", async () => {
  await using t = await makeTestWorkspace();
  const text =
    "\uFEFFconst a = 1;\r\n\r\n// b doc\r\nfunction b() {\r\n  return 2;\r\n}\r\n\r\nconst c = 3;\r\n";
  const path = await t.write("a.ts", new TextEncoder().encode(text));
  const result = await deleteSymbolTool.execute({ path: "a.ts", name: "b" }, t.ctx);
  assert.match(result.output, /^Deleted function "b" from a\.ts \(lines 3-7\)\n@@ /);
  assert.ok(!result.output.includes("\r"), "the diff is shown with LF line endings");
  const bytes = await Deno.readFile(path);
  assert.equal(
    new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes),
    "\uFEFFconst a = 1;\r\n\r\nconst c = 3;\r\n",
  );
});

Deno.test("deleteSymbolTool refuses a name declared together with others, and broken code", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.ts", "const a = 1, b = 2;\n\nfunction bad() {\n  return 1 +;\n}\n");
  const shared = await rejectsWithCode(
    deleteSymbolTool.execute({ path: "a.ts", name: "a" }, t.ctx),
    "tool.symbol_shared",
  );
  assert.match(shared.message, /line 1 declares it together with "b"; use edit_file/);
  await rejectsWithCode(deleteSymbolTool.execute({ path: "a.ts", name: "bad" }, t.ctx), "tool.syntax_error");
});

Deno.test("deleteSymbolTool checks paths like every writer", async () => {
  await using t = await makeTestWorkspace();
  await Deno.writeTextFile(join(t.outside, "o.ts"), "function f() {}\n");
  await rejectsWithCode(
    deleteSymbolTool.execute({ path: join(t.outside, "o.ts"), name: "f" }, t.ctx),
    "tool.path_outside_workspace",
  );
  await rejectsWithCode(deleteSymbolTool.execute({ path: "missing.ts", name: "f" }, t.ctx), "tool.not_found");
});
