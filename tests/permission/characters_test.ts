import assert from "node:assert/strict";
import { characterProblem, escapeInvisible } from "../../src/permission/characters.ts";
import { parseBash } from "../../src/permission/bash_parse.ts";

async function problem(line: string) {
  const script = await parseBash(line);
  return characterProblem(line, script.quoted)?.class ?? null;
}

Deno.test("escapeInvisible() shows bidi, zero-width and control characters as \\u escapes", () => {
  assert.equal(escapeInvisible("ls \u202Erm -rf x\u202C"), "ls \\u202Erm -rf x\\u202C");
  assert.equal(escapeInvisible("a\u200Bb\u00A0c\uFEFFd\u2066e"), "a\\u200Bb\\u00A0c\\uFEFFd\\u2066e");
  assert.equal(escapeInvisible("ls\rrm x"), "ls\\u000Drm x");
  assert.equal(escapeInvisible("echo \u{E0041}"), "echo \\u{E0041}");
  assert.equal(escapeInvisible('echo "你好 café"\nls\tx'), 'echo "你好 café"\nls\tx', "visible text is kept");
});

Deno.test("characterProblem() allows ordinary non-ASCII inside quotes, never invisible characters", async () => {
  assert.equal(await problem('echo "你好"'), null);
  assert.equal(await problem("grep 'café' a.txt"), null);
  assert.equal(await problem("ls # commentaire réécrit"), null);
  assert.equal(await problem("cat 笔记.md"), null, "scripts without ASCII look-alikes may stay unquoted");
  assert.equal(await problem('echo "a\u202Eb"'), "lookalike-characters");
  assert.equal(await problem("echo 'x\u200By'"), "lookalike-characters");
  assert.equal(await problem('echo "a\rb"'), "lookalike-characters");
});

Deno.test("characterProblem() flags look-alikes outside quotes and a bare carriage return", async () => {
  assert.equal(await problem("сat a.txt"), "lookalike-characters", "Cyrillic с");
  assert.equal(await problem("ls；rm x"), "lookalike-characters", "fullwidth semicolon");
  assert.equal(await problem("cat \u2044etc\u2044passwd"), "lookalike-characters", "fraction slash");
  assert.equal(await problem("ls\u00A0-la"), "lookalike-characters", "no-break space");
  assert.equal(await problem("cat café.txt"), "lookalike-characters", "unquoted Latin letters with accents");
  assert.equal(await problem("ls\rrm -rf x"), "top-level-newline");
  assert.equal(await problem("ls\r\npwd"), "top-level-newline");
});
