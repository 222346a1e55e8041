import assert from "node:assert/strict";
import { displayWidth, keyValueTable, wrapText } from "../../src/lib/text_table.ts";

Deno.test("keyValueTable() aligns the values in one column after the widest key", () => {
  const table = keyValueTable([["Model:", "flash"], ["Permissions:", "ask"]], 80);
  assert.equal(table, "Model:        flash\nPermissions:  ask");
});

Deno.test("keyValueTable() wraps a long value under its own column, never under the keys", () => {
  const paths = Array.from({ length: 8 }, (_, i) => `/home/user/.config/tool-${i}`).join(", ");
  const table = keyValueTable([["Hidden:", paths], ["Temp dir:", "/tmp/x"]], 50);
  const lines = table.split("\n");
  assert.ok(lines.length > 3, table);
  assert.ok(lines[0]!.startsWith("Hidden:    /home/user/.config/tool-0,"), table);
  for (const line of lines.slice(1, -1)) assert.match(line, /^ {11}\/home/, table);
  assert.equal(lines.at(-1), "Temp dir:  /tmp/x");
  for (const line of lines) assert.ok(line.length <= 50, `over 50 columns: ${JSON.stringify(line)}`);
  assert.equal(lines.slice(0, -1).map((line) => line.slice(11)).join(" "), paths);
});

Deno.test("keyValueTable() cuts a word longer than the column and keeps a value's own line breaks", () => {
  const long = `/tmp/${"a".repeat(60)}`;
  const table = keyValueTable([["File:", long], ["Note:", "one\ntwo"]], 40);
  assert.deepEqual(table.split("\n"), [
    `File:  ${long.slice(0, 33)}`,
    `       ${long.slice(33)}`,
    "Note:  one",
    "       two",
  ]);
});

Deno.test("keyValueTable() measures wide characters as two columns", () => {
  assert.equal(displayWidth("会话："), 6);
  assert.equal(keyValueTable([["会话：", "a"], ["Model:", "b"]]), "会话：  a\nModel:  b");
});

Deno.test("keyValueTable() keeps a readable value column on a very narrow width", () => {
  const table = keyValueTable([["A long key:", "one two three four five six"]], 10);
  assert.deepEqual(table.split("\n"), ["A long key:  one two three", "             four five six"]);
});

Deno.test("wrapText() breaks at spaces and drops the trailing ones", () => {
  assert.deepEqual(wrapText("alpha beta gamma", 11), ["alpha beta", "gamma"]);
  assert.deepEqual(wrapText("", 10), [""]);
});

Deno.test("keyValueTable() wraps a list between its items, so a path with a space stays whole", () => {
  const items = ["/home/me/.ssh", "/home/me/Library/Application Support/Google/Chrome", "/home/me/.aws"];
  const table = keyValueTable([["Hidden:", items]], 62);
  assert.deepEqual(table.split("\n"), [
    "Hidden:  /home/me/.ssh,",
    "         /home/me/Library/Application Support/Google/Chrome,",
    "         /home/me/.aws",
  ]);
  assert.equal(keyValueTable([["Hidden:", []]]), "Hidden:");
});
