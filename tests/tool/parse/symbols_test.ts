import assert from "node:assert/strict";
import {
  type CodeSymbol,
  extractSymbols,
  kindMatches,
  supportsSymbols,
} from "../../../src/tool/parse/symbols.ts";

type Brief = Pick<CodeSymbol, "name" | "kind" | "parent" | "line" | "startLine" | "endLine" | "sharedWith">;

function brief(symbols: CodeSymbol[]): Brief[] {
  return symbols.map((s) => {
    const out: Brief = {
      name: s.name,
      kind: s.kind,
      line: s.line,
      startLine: s.startLine,
      endLine: s.endLine,
    };
    if (s.parent !== undefined) out.parent = s.parent;
    if (s.sharedWith !== undefined) out.sharedWith = s.sharedWith;
    return out;
  });
}

const TS_SOURCE = `import { x } from "./x.ts";

/** Adds. */
export function add(a: number, b: number): number {
  return a + b;
}

// The shape.
export interface Shape {
  area(): number;
}

export type Id = string | number;

enum Color { Red, Green }

export const LIMIT = 10; // trailing note
let a = 1, b = 2;

@sealed
export class Circle implements Shape {
  /** Area. */
  @memo
  area(): number {
    return 3;
  }
  scale(by: string): void;
  scale(by: any) {}
}

export function over(a: string): void;
export function over(a: any) {}

export default class {}
namespace Inner {}
`;

Deno.test("extractSymbols() finds TypeScript declarations with their comments and decorators", async () => {
  assert.deepEqual(brief(await extractSymbols(TS_SOURCE, "typescript")), [
    { name: "add", kind: "function", line: 4, startLine: 3, endLine: 6 },
    { name: "Shape", kind: "interface", line: 9, startLine: 8, endLine: 11 },
    { name: "Id", kind: "type", line: 13, startLine: 13, endLine: 13 },
    { name: "Color", kind: "enum", line: 15, startLine: 15, endLine: 15 },
    { name: "LIMIT", kind: "const", line: 17, startLine: 17, endLine: 17 },
    { name: "a", kind: "var", line: 18, startLine: 18, endLine: 18, sharedWith: ["b"] },
    { name: "b", kind: "var", line: 18, startLine: 18, endLine: 18, sharedWith: ["a"] },
    { name: "Circle", kind: "class", line: 21, startLine: 20, endLine: 29 },
    { name: "area", kind: "method", parent: "Circle", line: 24, startLine: 22, endLine: 26 },
    { name: "scale", kind: "method", parent: "Circle", line: 27, startLine: 27, endLine: 28 },
    { name: "over", kind: "function", line: 31, startLine: 31, endLine: 32 },
    { name: "default", kind: "class", line: 34, startLine: 34, endLine: 34 },
    { name: "Inner", kind: "namespace", line: 35, startLine: 35, endLine: 35 },
  ]);
});

Deno.test("extractSymbols() gives exact string and UTF-8 byte ranges", async () => {
  const text = '// ü\nconst s = "é";\n';
  const [symbol] = await extractSymbols(text, "javascript");
  assert.deepEqual(symbol, {
    name: "s",
    kind: "const",
    line: 2,
    startLine: 1,
    endLine: 2,
    start: 0,
    end: text.length - 1,
    startByte: 0,
    endByte: new TextEncoder().encode(text).length - 1,
    hasError: false,
  });
  assert.equal(text.slice(symbol!.start, symbol!.end), '// ü\nconst s = "é";');
});

Deno.test("extractSymbols() finds Go funcs, methods with receivers, types and grouped specs", async () => {
  const text = `package main

// Run runs.
func Run() {}

// Start is a method.
func (s *Server) Start() error { return nil }

func (b Box[T]) Get() T { var zero T; return zero }

type Server struct{ port int }

type Runner interface{ Run() }

type (
	ID int
	// Name doc.
	Name = string
)

const Max = 3

var (
	x, y = 1, 2
	z    = 3
)
`;
  assert.deepEqual(brief(await extractSymbols(text, "go")), [
    { name: "Run", kind: "function", line: 4, startLine: 3, endLine: 4 },
    { name: "Start", kind: "method", parent: "Server", line: 7, startLine: 6, endLine: 7 },
    { name: "Get", kind: "method", parent: "Box", line: 9, startLine: 9, endLine: 9 },
    { name: "Server", kind: "struct", line: 11, startLine: 11, endLine: 11 },
    { name: "Runner", kind: "interface", line: 13, startLine: 13, endLine: 13 },
    { name: "ID", kind: "type", line: 16, startLine: 16, endLine: 16 },
    { name: "Name", kind: "type", line: 18, startLine: 17, endLine: 18 },
    { name: "Max", kind: "const", line: 21, startLine: 21, endLine: 21 },
    { name: "x", kind: "var", line: 24, startLine: 24, endLine: 24, sharedWith: ["y"] },
    { name: "y", kind: "var", line: 24, startLine: 24, endLine: 24, sharedWith: ["x"] },
    { name: "z", kind: "var", line: 25, startLine: 25, endLine: 25 },
  ]);
});

Deno.test("extractSymbols() finds Python functions, classes, methods and assignments", async () => {
  const text = `import os

# Helper.
@cache
def helper(x):
    return x

class Box(Base):
    # Get it.
    @property
    def get(self):
        return 1

    async def put(self, v):
        pass

LIMIT = 5
`;
  assert.deepEqual(brief(await extractSymbols(text, "python")), [
    { name: "helper", kind: "function", line: 5, startLine: 3, endLine: 6 },
    { name: "Box", kind: "class", line: 8, startLine: 8, endLine: 15 },
    { name: "get", kind: "method", parent: "Box", line: 11, startLine: 9, endLine: 12 },
    { name: "put", kind: "method", parent: "Box", line: 14, startLine: 14, endLine: 15 },
    { name: "LIMIT", kind: "var", line: 17, startLine: 17, endLine: 17 },
  ]);
});

Deno.test("extractSymbols() marks a declaration the parser had to recover", async () => {
  const symbols = await extractSymbols(
    "function ok() {}\n\nfunction bad() {\n  return 1 +;\n}\n",
    "typescript",
  );
  assert.deepEqual(symbols.map((s) => [s.name, s.hasError]), [["ok", false], ["bad", true]]);
});

Deno.test("supportsSymbols() and kindMatches() describe what the extractor covers", () => {
  assert.deepEqual(
    (["typescript", "tsx", "javascript", "go", "python", "rust", "bash"] as const).map(supportsSymbols),
    [true, true, true, true, true, false, false],
  );
  assert.equal(kindMatches("type", "struct"), true);
  assert.equal(kindMatches("type", "class"), true);
  assert.equal(kindMatches("class", "type"), false);
  assert.equal(kindMatches("function", "method"), false);
});
