import assert from "node:assert/strict";
import { ProviderError } from "../../src/provider/errors.ts";
import { ReasonixError } from "../../src/lib/errors.ts";

Deno.test("ProviderError carries status, retryability, request id and attempts", () => {
  const cause = new Error("socket");
  const error = new ProviderError("provider.server", "Cannot get a reply", {
    status: 503,
    retryable: true,
    requestId: "req-1",
    attempts: 4,
    cause,
  });
  assert.ok(error instanceof ReasonixError);
  assert.deepEqual(
    [error.name, error.code, error.status, error.retryable, error.requestId, error.attempts, error.cause],
    ["ProviderError", "provider.server", 503, true, "req-1", 4, cause],
  );
});

Deno.test("ProviderError defaults to not retryable with no attempts", () => {
  const error = new ProviderError("provider.auth", "Rejected");
  assert.deepEqual([error.status, error.retryable, error.requestId, error.attempts], [
    undefined,
    false,
    undefined,
    0,
  ]);
});
