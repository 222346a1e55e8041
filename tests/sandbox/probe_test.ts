import assert from "node:assert/strict";
import { probeBubblewrap, probeSeatbelt } from "../../src/sandbox/probe.ts";
import { BWRAP_MISSING } from "./_bwrap.ts";

Deno.test("probeBubblewrap() names a missing binary", async () => {
  assert.deepEqual(await probeBubblewrap("/nonexistent/bwrap"), {
    ok: false,
    reason: "bubblewrap (bwrap) is not installed",
  });
});

Deno.test("probeBubblewrap() reports the failure of a bwrap that cannot sandbox", async () => {
  const result = await probeBubblewrap("false");
  assert.equal(result.ok, false);
  assert.match((result as { reason: string }).reason, /cannot create namespaces here \(exit 1\)/);
});

Deno.test({
  name: "probeBubblewrap() succeeds with the real bubblewrap",
  ignore: BWRAP_MISSING,
  async fn() {
    assert.deepEqual(await probeBubblewrap(), { ok: true });
  },
});

Deno.test("probeSeatbelt() needs sandbox-exec", async () => {
  assert.deepEqual(await probeSeatbelt("/nonexistent/sandbox-exec"), {
    ok: false,
    reason: "/nonexistent/sandbox-exec is missing",
  });
});
