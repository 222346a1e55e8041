import assert from "node:assert/strict";
import { editDistance } from "../../src/lib/edit_distance.ts";

Deno.test("editDistance() counts insertions, deletions and substitutions", () => {
  assert.equal(editDistance("", ""), 0);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("abc", ""), 3);
  assert.equal(editDistance("compact", "compact"), 0);
  assert.equal(editDistance("compcat", "compact"), 2, "a swap is two substitutions");
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("hepl", "help"), 2);
  assert.equal(editDistance("stat", "status"), 2);
});
