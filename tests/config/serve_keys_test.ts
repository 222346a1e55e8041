import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { fixture } from "./_fixture.ts";

Deno.test("loadConfig() reads [serve] from the user config; defaults are loopback and token auth", async () => {
  await using fx = await fixture();
  const defaults = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(defaults.serve, { addr: "127.0.0.1:8787", authMode: "token", behindProxy: false });
  await fx.write(
    fx.paths.globalConfigFile,
    `[serve]\naddr = "0.0.0.0:9000"\nauth_mode = "password"\npassword_hash = "$2b$12$x"\nbehind_proxy = true\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.serve, {
    addr: "0.0.0.0:9000",
    authMode: "password",
    passwordHash: "$2b$12$x",
    behindProxy: true,
  });
});

Deno.test("loadConfig() ignores every [serve] key of a project file, with a warning at its line", async () => {
  await using fx = await fixture();
  await fx.write(
    join(fx.workspace, "reasonix.toml"),
    `[serve]\nauth_mode = "none"\naddr = "0.0.0.0:80"\nbehind_proxy = true\ntoken = "chosen-by-the-repo"\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.serve, { addr: "127.0.0.1:8787", authMode: "token", behindProxy: false });
  const messages = config.warnings.map((w) => `${w.line}: ${w.message}`);
  assert.deepEqual(messages, [
    `2: "serve.auth_mode" is only read from the user config and is ignored here`,
    `3: "serve.addr" is only read from the user config and is ignored here`,
    `4: "serve.behind_proxy" is only read from the user config and is ignored here`,
    `5: "serve.token" is only read from the user config and is ignored here`,
  ]);
});

Deno.test("loadConfig() rejects an unknown [serve] auth_mode at file:line:column", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[serve]\nauth_mode = "open"\n`);
  await assert.rejects(
    loadConfig({ workspace: fx.workspace, paths: fx.paths }),
    /:2:1: Cannot read "serve.auth_mode"/,
  );
});
