import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/load.ts";
import { fixture } from "./_fixture.ts";

Deno.test("loadConfig() reads [agent] compact_ratio without a warning", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, "[agent]\ncompact_ratio = 0.5\n");
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(config.agent.compactRatio, 0.5);
  assert.deepEqual(config.warnings, []);
});

Deno.test("loadConfig() rejects a compact_ratio outside 0.3 to 0.85", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, "[agent]\ncompact_ratio = 0.95\n");
  await assert.rejects(
    loadConfig({ workspace: fx.workspace, paths: fx.paths }),
    /a number from 0.3 to 0.85/,
  );
});
