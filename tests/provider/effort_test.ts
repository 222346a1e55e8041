import assert from "node:assert/strict";
import { normalizeEffort } from "../../src/provider/effort.ts";
import { ReasonixError } from "../../src/lib/errors.ts";

Deno.test("normalizeEffort() keeps the five native efforts", () => {
  const native = ["auto", "disabled", "low", "high", "max"];
  assert.deepEqual(native.map(normalizeEffort), native);
});

Deno.test("normalizeEffort() maps DeepSeek's aliases", () => {
  const aliases = ["minimal", "medium", "xhigh", "ultra", " HIGH "];
  assert.deepEqual(aliases.map(normalizeEffort), ["low", "high", "high", "max", "high"]);
});

Deno.test("normalizeEffort() rejects an unknown value naming the accepted ones", () => {
  assert.throws(() => normalizeEffort("turbo"), (error: unknown) => {
    assert.ok(error instanceof ReasonixError);
    assert.equal(error.code, "config.effort");
    assert.match(error.message, /^Cannot use effort "turbo": expected one of "auto", "disabled", "low"/);
    assert.match(error.message, /"ultra"$/);
    return true;
  });
});

Deno.test("normalizeEffort() does not accept inherited object keys", () => {
  assert.throws(() => normalizeEffort("constructor"), { code: "config.effort" });
});
