import assert from "node:assert/strict";
import { formatCount } from "../../../src/frontends/tui/components/format.ts";

Deno.test("formatCount() groups digits as en-US does", () => {
  for (const n of [0, 7, 999, 1000, 12_345, 999_999, 1_234_567, 10_000_000_000]) {
    assert.equal(formatCount(n), n.toLocaleString("en-US"));
  }
});
