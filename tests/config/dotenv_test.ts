import assert from "node:assert/strict";
import { parseDotenv } from "../../src/config/dotenv.ts";

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
