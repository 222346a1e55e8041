import assert from "node:assert/strict";
import { join } from "node:path";
import { approveKeyPairing, isKeyPairingApproved } from "../../src/config/trust.ts";
import { fixture } from "./_fixture.ts";

const PAIRING = { provider: "proxy", host: "proxy.example.com", apiKeyEnv: "DEEPSEEK_API_KEY" };

Deno.test("approveKeyPairing() approves for one workspace and pairing only", async () => {
  await using fx = await fixture();
  assert.equal(await isKeyPairingApproved(fx.paths, fx.workspace, PAIRING), false);
  await approveKeyPairing(fx.paths, fx.workspace, PAIRING);
  assert.equal(await isKeyPairingApproved(fx.paths, fx.workspace, PAIRING), true);
  assert.equal(await isKeyPairingApproved(fx.paths, join(fx.root, "other"), PAIRING), false);
  assert.equal(
    await isKeyPairingApproved(fx.paths, fx.workspace, { ...PAIRING, host: "evil.example.com" }),
    false,
  );
  assert.equal(await isKeyPairingApproved(fx.paths, fx.workspace, { ...PAIRING, apiKeyEnv: "OTHER" }), false);
  const mode = (await Deno.stat(fx.paths.trustFile)).mode! & 0o777;
  assert.equal(mode, 0o600);
});

Deno.test("approveKeyPairing() keeps the rest of trust.json and replaces the provider's old pairing", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.trustFile, JSON.stringify({ projects: { "/x": true } }));
  await approveKeyPairing(fx.paths, fx.workspace, { ...PAIRING, host: "old.example.com" });
  await approveKeyPairing(fx.paths, fx.workspace, PAIRING);
  const stored = JSON.parse(await Deno.readTextFile(fx.paths.trustFile));
  assert.deepEqual(stored.projects, { "/x": true });
  assert.deepEqual(stored.keyPairings[fx.workspace].map((p: { host: string }) => p.host), [
    "proxy.example.com",
  ]);
  const names = [...Deno.readDirSync(fx.paths.home)].map((entry) => entry.name).sort();
  // The temp file is made in .staging (the fence's grant) and renamed away; the dir stays, empty.
  assert.deepEqual(names, [".staging", "trust.json"]);
  assert.deepEqual([...Deno.readDirSync(join(fx.paths.home, ".staging"))], []);
});

Deno.test("isKeyPairingApproved() approves nothing from a corrupt trust.json", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.trustFile, "{not json");
  assert.equal(await isKeyPairingApproved(fx.paths, fx.workspace, PAIRING), false);
  await assert.rejects(approveKeyPairing(fx.paths, fx.workspace, PAIRING), /not valid JSON/);
});
