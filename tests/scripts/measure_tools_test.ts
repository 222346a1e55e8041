import assert from "node:assert/strict";
import { measureTools, placedByFigures } from "../../scripts/measure_tools.ts";

Deno.test("measure_tools: every built-in sits where its figures put it (base list or use_capability)", () => {
  const rows = measureTools();
  assert.equal(rows.length, 20);
  const misplaced = rows.filter((row) => !placedByFigures(row)).map((row) => row.name);
  assert.deepEqual(misplaced, [], "a schema or share changed: revisit PROXIED_TOOLS and docs/PERFORMANCE.md");
  for (const row of rows) assert.ok(row.schema > 50 && row.shape < row.schema, row.name);
});
