import assert from "node:assert/strict";
import { parseDotenv, readDotenv } from "../../src/config/dotenv.ts";

Deno.test("parseDotenv() reads plain, exported and quoted values", () => {
  const text = [
    "# a comment",
    "",
    "PLAIN=abc",
    "SPACED = value with spaces   ",
    "export EXPORTED=yes",
    'DOUBLE="a \\"q\\" \\n b # not a comment"',
    "SINGLE='raw \\n # kept'",
    "TRAILING=value # comment",
    "HASH=abc#def",
    "EMPTY=",
    "not a line",
    "1BAD=x",
  ].join("\r\n");
  assert.deepEqual(
    Object.fromEntries(parseDotenv(text)),
    {
      PLAIN: "abc",
      SPACED: "value with spaces",
      EXPORTED: "yes",
      DOUBLE: 'a "q" \n b # not a comment',
      SINGLE: "raw \\n # kept",
      TRAILING: "value",
      HASH: "abc#def",
      EMPTY: "",
    },
  );
});

Deno.test("parseDotenv() lets a double-quoted value span lines", () => {
  assert.deepEqual(Object.fromEntries(parseDotenv('KEY="line1\nline2"\nNEXT=1\n')), {
    KEY: "line1\nline2",
    NEXT: "1",
  });
});

Deno.test("parseDotenv() removes a key at its reasonix-cleared tombstone", () => {
  const text =
    "DEEPSEEK_API_KEY=sk-old\nOTHER=1\n# reasonix-cleared DEEPSEEK_API_KEY\nLATER=2\n# reasonix-cleared LATER\n";
  assert.deepEqual(Object.fromEntries(parseDotenv(text)), { OTHER: "1" });
  assert.deepEqual(Object.fromEntries(parseDotenv("# reasonix-cleared K\nK=new\n")), { K: "new" });
});

Deno.test("parseDotenv() lets a later assignment win", () => {
  assert.equal(parseDotenv("K=1\nK=2\n").get("K"), "2");
});

Deno.test("readDotenv() reports each skipped line with its number, never its text", () => {
  const text = [
    "GOOD=1",
    "not a line",
    "DEEPSEEK-API-KEY=sk-secret",
    "",
    "QUOTED='unclosed",
    'LAST="never closed',
    "AFTER=2",
  ].join("\n");
  const { entries, problems } = readDotenv(text);
  assert.deepEqual(entries.get("GOOD"), { value: "1", line: 1 });
  assert.deepEqual(entries.get("QUOTED"), { value: "unclosed", line: 5 });
  // An unclosed double quote runs to the end of the file, as before; it is reported, not silently eaten.
  assert.equal(entries.get("LAST")?.value, "never closed\nAFTER=2");
  assert.deepEqual(problems, [
    { line: 2, message: "skipped: expected NAME=value" },
    {
      line: 3,
      message: 'skipped: the name before "=" is not a variable name (letters, digits, "_" and ".")',
    },
    { line: 5, message: "the single quote of QUOTED is never closed: its value runs to the end of the line" },
    { line: 6, message: "the double quote of LAST is never closed: its value runs to the end of the file" },
  ]);
  assert.doesNotMatch(JSON.stringify(problems), /sk-secret/);
});

Deno.test("readDotenv() finds nothing wrong in a well-formed file", () => {
  const text = "# c\nexport A=1\nB='2'\nC=\"x\ny\"\n# reasonix-cleared A\n\n";
  assert.deepEqual(readDotenv(text).problems, []);
});
