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

Deno.test("loadConfig() reads [agent] verify_commands as a list of command prefixes", async () => {
  await using fx = await fixture();
  const plain = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(plain.agent.verifyCommands, undefined);
  await fx.write(fx.paths.globalConfigFile, `[agent]\nverify_commands = ["./ci/run", "bazel test"]\n`);
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.agent.verifyCommands, ["./ci/run", "bazel test"]);
  assert.deepEqual(config.warnings, []);
});

Deno.test("loadConfig() rejects [agent] verify_commands that are not non-empty strings, with file:line:col", async () => {
  await using fx = await fixture();
  for (
    const [toml, expected] of [
      [
        `[agent]\nmax_steps = 3\nverify_commands = "make test"\n`,
        /:3:\d+: .*"agent\.verify_commands".*array of strings/s,
      ],
      [
        `[agent]\nmax_steps = 3\nverify_commands = ["make test", 7]\n`,
        /:3:\d+: .*"agent\.verify_commands\[1\]"/s,
      ],
      [
        `[agent]\nmax_steps = 3\nverify_commands = ["make test", " "]\n`,
        /:3:\d+: .*non-empty command prefixes/s,
      ],
    ] as const
  ) {
    await fx.write(fx.paths.globalConfigFile, toml);
    const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
    assert.ok(error instanceof ConfigError, toml);
    assert.equal(error.file, fx.paths.globalConfigFile);
    assert.equal(error.line, 3);
    assert.match(error.message, expected);
  }
});
