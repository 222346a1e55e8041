import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/load.ts";
import { ConfigError } from "../../src/config/errors.ts";
import { fixture } from "./_fixture.ts";

Deno.test("loadConfig() reads [agent] delivery, absent by default (off)", async () => {
  await using fx = await fixture();
  const plain = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(plain.agent.delivery, undefined);
  await fx.write(fx.paths.globalConfigFile, `[agent]\ndelivery = "verify"\n`);
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(config.agent.delivery, "verify");
  assert.deepEqual(config.warnings, []);
});

Deno.test("loadConfig() rejects an unknown [agent] delivery value with file:line:col", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[agent]\nmax_steps = 3\ndelivery = "strict"\n`);
  const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.ok(error instanceof ConfigError);
  assert.equal(error.file, fx.paths.globalConfigFile);
  assert.equal(error.line, 3);
  assert.match(error.message, /:3:\d+: .*"agent\.delivery".*one of "verify", "off"/s);
});
