import assert from "node:assert/strict";
import { languageForPath, loadLanguage, parseSource } from "../../../src/tool/parse/tree_sitter.ts";

Deno.test("languageForPath() maps extensions to bundled grammars", () => {
  const cases: Record<string, string | null> = {
    "a.ts": "typescript",
    "a.mts": "typescript",
    "a.cts": "typescript",
    "types.d.ts": "typescript",
    "A.TSX": "tsx",
    "a.js": "javascript",
    "a.mjs": "javascript",
    "a.cjs": "javascript",
    "a.jsx": "javascript",
    "main.go": "go",
    "x/y.py": "python",
    "lib.rs": "rust",
    "run.sh": "bash",
    "README.md": null,
    "Makefile": null,
  };
  const actual = Object.fromEntries(Object.keys(cases).map((path) => [path, languageForPath(path)]));
  assert.deepEqual(actual, cases);
});

Deno.test("parseSource() parses each supported language into a tree without errors", async () => {
  const samples = {
    typescript: "export const a: number = 1;\n",
    tsx: "const el = <div>{a}</div>;\n",
    javascript: "function f() { return 1; }\n",
    go: "package main\n\nfunc main() {}\n",
    python: "def f():\n    return 1\n",
    rust: "fn main() {}\n",
    bash: "echo hi | grep h\n",
  } as const;
  const roots: Record<string, string> = {};
  for (const [language, text] of Object.entries(samples)) {
    using parsed = await parseSource(text, language as keyof typeof samples);
    assert.equal(parsed.root.hasError, false, `${language} parsed with errors`);
    roots[language] = parsed.root.type;
  }
  assert.deepEqual(roots, {
    typescript: "program",
    tsx: "program",
    javascript: "program",
    go: "source_file",
    python: "module",
    rust: "source_file",
    bash: "program",
  });
});

Deno.test("loadLanguage() loads a grammar once and reuses it", async () => {
  const first = await loadLanguage("go");
  const second = await loadLanguage("go");
  assert.equal(first, second);
});

Deno.test("parseSource() reports string offsets, not UTF-8 byte offsets", async () => {
  using parsed = await parseSource('const é = "ü";\nlet b = 2;\n', "typescript");
  const second = parsed.root.namedChildren[1]!;
  assert.equal(second.startIndex, 15);
  assert.equal(second.startPosition.row, 1);
});
