import assert from "node:assert/strict";
import { compileGlob, globMatches } from "../../../src/tool/builtin/_glob_match.ts";
import { isIgnored, parseGitignore } from "../../../src/tool/builtin/_gitignore.ts";

function matches(pattern: string, rel: string): boolean {
  return globMatches(compileGlob(pattern), rel);
}

Deno.test("globMatches() follows gitignore-style glob rules", () => {
  const cases: [string, string, boolean][] = [
    ["*.ts", "a.ts", true],
    ["*.ts", "src/deep/a.ts", true],
    ["*.ts", "a.tsx", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/x/a.ts", false],
    ["/src/*.ts", "src/a.ts", true],
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "x/y/a.ts", true],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["src/**", "src/x/y", true],
    ["src/**", "srcx/y", false],
    ["a?c", "abc", true],
    ["a?c", "a/c", false],
    ["*.{ts,js}", "m.js", true],
    ["*.{ts,js}", "m.go", false],
    ["[ab].txt", "b.txt", true],
    ["[!ab].txt", "b.txt", false],
    ["[!ab].txt", "c.txt", true],
    ["a.b", "axb", false],
    ["\\*.txt", "*.txt", true],
    ["\\*.txt", "x.txt", false],
  ];
  for (const [pattern, rel, expected] of cases) {
    assert.equal(matches(pattern, rel), expected, `${pattern} vs ${rel}`);
  }
});

Deno.test("isIgnored() applies negation, directory-only rules and nested bases", () => {
  const root = "/ws";
  const rules = [
    ...parseGitignore("# comment\n*.log\n!keep.log\nbuild/\n/top.txt\n", root),
    ...parseGitignore("*.gen\n", "/ws/sub"),
  ];
  assert.equal(isIgnored(rules, "/ws/a.log", false), true);
  assert.equal(isIgnored(rules, "/ws/deep/keep.log", false), false);
  assert.equal(isIgnored(rules, "/ws/build", true), true);
  assert.equal(isIgnored(rules, "/ws/build", false), false);
  assert.equal(isIgnored(rules, "/ws/top.txt", false), true);
  assert.equal(isIgnored(rules, "/ws/sub/top.txt", false), false);
  assert.equal(isIgnored(rules, "/ws/sub/x.gen", false), true);
  assert.equal(isIgnored(rules, "/ws/x.gen", false), false);
});
