import assert from "node:assert/strict";
import { fuzzyRank, fuzzyScore } from "../../../src/frontends/tui/input/fuzzy.ts";

Deno.test("a query that is not an in-order subsequence does not match", () => {
  assert.equal(fuzzyScore("zx", "src/main.ts"), undefined);
  assert.equal(fuzzyScore("tsm", "main.ts"), undefined);
  assert.notEqual(fuzzyScore("mts", "main.ts"), undefined);
});

Deno.test("matching ignores case and an empty query matches everything", () => {
  assert.notEqual(fuzzyScore("README", "docs/readme.md"), undefined);
  assert.equal(fuzzyScore("", "anything"), 0);
});

Deno.test("file-name and segment-start hits outrank scattered ones", () => {
  const files = ["src/agent/loop.ts", "src/control/controller.ts", "tests/control/controller_test.ts"];
  assert.deepEqual(fuzzyRank("ctrl", files), [
    "src/control/controller.ts",
    "tests/control/controller_test.ts",
  ]);
  assert.deepEqual(fuzzyRank("loop", files)[0], "src/agent/loop.ts");
});

Deno.test("consecutive letters beat spread-out ones; shorter wins a tie", () => {
  assert.deepEqual(fuzzyRank("mod", ["m/o/d.ts", "mod.ts", "src/mod.tsx"]), [
    "mod.ts",
    "src/mod.tsx",
    "m/o/d.ts",
  ]);
});

Deno.test("rank honours the limit and works for slash command names", () => {
  const commands = ["help", "model", "mcp", "memory", "remember", "resume", "rename"];
  assert.deepEqual(fuzzyRank("re", commands, 3), ["resume", "rename", "remember"]);
  assert.deepEqual(fuzzyRank("mem", commands), ["memory", "remember"]);
});

Deno.test("wide characters match like any other character", () => {
  assert.deepEqual(fuzzyRank("说明", ["docs/使用说明.md", "docs/readme.md"]), ["docs/使用说明.md"]);
});
