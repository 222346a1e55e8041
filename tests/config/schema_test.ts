import assert from "node:assert/strict";
import { displayKey, leafFor, parseLeafInput } from "../../src/config/schema.ts";

Deno.test("parseLeafInput() reads a command-line value as the key's type", () => {
  const read = (key: string, raw: string) => parseLeafInput(key, leafFor(key.split(".")), raw);
  assert.equal(read("tools.bash_timeout_seconds", "1_000"), 1000);
  assert.equal(read("agent.system_prompt", " padded "), "padded");
  assert.deepEqual(read("tools.enabled", ""), []);
  assert.deepEqual(read("tools.enabled", "a, b"), ["a", "b"]);
  assert.deepEqual(read("tools.enabled", `["a,b"]`), ["a,b"]);
  assert.equal(read("permissions.mode", "workspace-write"), "workspace-write");
  assert.throws(() => read("tools.enabled", "[1]"), /expected an array of strings, got "\[1\]"/);
  assert.throws(() => read("billing.display_currency", "EUR"), /expected one of "auto", "CNY", "USD"/);
});

Deno.test("leafFor() explains keys that cannot be set", () => {
  assert.throws(() => leafFor(["providers"]), /edit \[\[providers\]\] entries/);
  assert.throws(() => leafFor(["tools"]), /it is a table/);
  assert.throws(() => leafFor(["ui", "cursor_shape"]), /accepted but not used yet/);
  assert.equal(leafFor(["ui", "theme"]).type, "string");
  assert.equal(leafFor(["model_overrides", "any.model", "effort"]).type, "string");
});

Deno.test("displayKey() writes array indices and quotes odd segments", () => {
  assert.equal(displayKey(["providers", 1, "price", "input"]), "providers[1].price.input");
  assert.equal(displayKey(["model_overrides", "v4.1", "effort"]), `model_overrides."v4.1".effort`);
});
