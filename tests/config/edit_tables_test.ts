import assert from "node:assert/strict";
import { appendArrayTable, removeArrayTable } from "../../src/config/edit_tables.ts";

const TEXT = `# header comment
a = 1

[[plugins]]
name = "one"
command = "x"   # inline comment
[plugins.env]
K = "v"

# about two
[[plugins]]
name = "two"
command = "y"

[tools]
enabled = []
`;

Deno.test("removeArrayTable() removes one entry with its sub-tables and keeps every other byte", () => {
  const removed = removeArrayTable(TEXT, "plugins", 0);
  assert.equal(
    removed,
    TEXT.replace(
      `[[plugins]]\nname = "one"\ncommand = "x"   # inline comment\n[plugins.env]\nK = "v"\n\n`,
      "",
    ),
  );
  assert.equal(
    removeArrayTable(TEXT, "plugins", 1),
    TEXT.replace(`[[plugins]]\nname = "two"\ncommand = "y"\n\n`, ""),
    "the comment above it may describe more than the entry: it stays",
  );
  assert.throws(() => removeArrayTable(TEXT, "plugins", 2), /Cannot remove plugins\[2\]/);
});

Deno.test("appendArrayTable() then removeArrayTable() gives the file back unchanged", () => {
  for (const text of [TEXT, "", "a = 1"]) {
    const added = appendArrayTable(text, "plugins", {
      name: "new",
      args: ["-y", "a b"],
      env: { "WEIRD.KEY": "v", PLAIN: "w" },
    });
    assert.match(
      added,
      /\[\[plugins\]\]\nname = "new"\nargs = \["-y", "a b"\]\nenv = \{ "WEIRD.KEY" = "v", PLAIN = "w" \}\n$/,
    );
    const index = text === TEXT ? 2 : 0;
    assert.equal(
      removeArrayTable(added, "plugins", index),
      text.endsWith("\n") || text === "" ? text : text + "\n",
    );
  }
});

Deno.test("appendArrayTable() refuses an edit that would not be valid TOML", () => {
  assert.throws(
    () => appendArrayTable(`plugins = []\n`, "plugins", { name: "x" }),
    /would not be valid TOML/,
  );
});
