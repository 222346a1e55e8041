import assert from "node:assert/strict";
import { parse } from "smol-toml";
import { TomlLocator } from "../../src/config/_locate.ts";

const TEXT = `title = """
[not_a_table]
fake = 1
"""
'quoted.key' = 'v'   # comment
"esc\\"aped" = 2
site."google.com" = true

[[a]]
[[a.b]]
x = 1
[[a]]
  [[a.b]]
  y = 2
[t . 'u']
date = 1979-05-27 07:32:00Z
arr = [ [1, 2], { k = "}" } ]
`;

Deno.test("TomlLocator records keys of every kind at their line and column", () => {
  parse(TEXT);
  const locator = new TomlLocator(TEXT);
  assert.equal(locator.entry(["not_a_table"]), undefined);
  assert.equal(locator.entry(["fake"]), undefined);
  assert.deepEqual(locator.keyPosition(["quoted.key"]), { line: 5, column: 1 });
  assert.deepEqual(locator.keyPosition(['esc"aped']), { line: 6, column: 1 });
  assert.deepEqual(locator.keyPosition(["site", "google.com"]), { line: 7, column: 1 });
  assert.deepEqual(locator.keyPosition(["a", 0, "b", 0, "x"]), { line: 11, column: 1 });
  assert.deepEqual(locator.keyPosition(["a", 1, "b", 0, "y"]), { line: 14, column: 3 });
  assert.deepEqual(locator.keyPosition(["a", 1]), { line: 12, column: 3 });
  assert.deepEqual(locator.keyPosition(["t", "u", "date"]), { line: 16, column: 1 });
  assert.deepEqual(locator.valuePosition(["t", "u", "arr", 0, 1]), { line: 17, column: 13 });
  assert.deepEqual(locator.keyPosition(["t", "u", "arr", 1, "k"]), { line: 17, column: 19 });
  const date = locator.entry(["t", "u", "date"])!;
  assert.equal(TEXT.slice(date.valueStart, date.valueEnd), "1979-05-27 07:32:00Z");
});

Deno.test("TomlLocator falls back to the nearest known ancestor", () => {
  const locator = new TomlLocator("[tools]\nenabled = []\n");
  assert.deepEqual(locator.keyPosition(["tools", "missing"]), { line: 1, column: 2 });
  assert.deepEqual(locator.keyPosition(["nothing"]), { line: 1, column: 1 });
});
