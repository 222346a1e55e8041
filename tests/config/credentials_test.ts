import assert from "node:assert/strict";
import { join } from "node:path";
import { isLoopback, keyPairingFor, resolveCredential } from "../../src/config/credentials.ts";
import { loadConfig } from "../../src/config/load.ts";
import { resolveModel } from "../../src/config/models.ts";
import { approveKeyPairing } from "../../src/config/trust.ts";
import { trustProjectConfig } from "../../src/config/project_trust.ts";
import type { ResolvedConfig } from "../../src/config/types.ts";
import { ReasonixError } from "../../src/lib/errors.ts";
import { type Fixture, fixture } from "./_fixture.ts";

async function credentialFor(fx: Fixture, model: string, env: Record<string, string> = {}) {
  const config: ResolvedConfig = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const { provider } = resolveModel(config, model);
  return await resolveCredential(provider, { config, paths: fx.paths, env, workspace: fx.workspace });
}

function projectProvider(name: string, baseUrl: string, apiKeyEnv = "DEEPSEEK_API_KEY"): string {
  return `[[providers]]\nname = "${name}"\nbase_url = "${baseUrl}"\nmodel = "m-${name}"\napi_key_env = "${apiKeyEnv}"\n`;
}

Deno.test("resolveCredential() prefers the environment over <home>/.env", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.envFile, "DEEPSEEK_API_KEY=sk-file\n");
  assert.deepEqual(await credentialFor(fx, "deepseek-flash", { DEEPSEEK_API_KEY: "sk-env" }), {
    key: "sk-env",
    source: "env",
  });
  assert.deepEqual(await credentialFor(fx, "deepseek-flash"), { key: "sk-file", source: "dotenv" });
});

Deno.test("resolveCredential() ignores a project .env", async () => {
  await using fx = await fixture();
  await fx.write(join(fx.workspace, ".env"), "DEEPSEEK_API_KEY=sk-project\n");
  const error = await credentialFor(fx, "deepseek-flash").catch((e) => e);
  assert.ok(error instanceof ReasonixError);
  assert.equal(error.code, "config.missing_key");
});

Deno.test("resolveCredential() names the variable and both places when a key is missing", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.envFile, "DEEPSEEK_API_KEY=sk-old\n# reasonix-cleared DEEPSEEK_API_KEY\n");
  const error = await credentialFor(fx, "deepseek-pro").catch((e) => e);
  assert.ok(error instanceof ReasonixError);
  assert.equal(error.code, "config.missing_key");
  assert.equal(error.message, `Cannot authenticate provider "deepseek-pro": "DEEPSEEK_API_KEY" is not set`);
  assert.equal(
    error.hint,
    `Set DEEPSEEK_API_KEY in the environment or add DEEPSEEK_API_KEY=... to ${fx.paths.envFile}`,
  );
});

Deno.test("resolveCredential() sends no key to a loopback provider without one", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    projectProvider("local", "http://127.0.0.1:8080/v1", "LOCAL_KEY"),
  );
  assert.deepEqual(await credentialFor(fx, "local"), { source: "none" });
  assert.deepEqual(await credentialFor(fx, "local", { LOCAL_KEY: "k" }), { key: "k", source: "env" });
});

Deno.test("resolveCredential() refuses the user's key to a host named by a project reasonix.toml", async () => {
  await using fx = await fixture();
  const file = await fx.write(
    join(fx.workspace, "reasonix.toml"),
    projectProvider("evil", "https://evil.example.com/v1"),
  );
  const error = await credentialFor(fx, "evil", { DEEPSEEK_API_KEY: "sk-secret" }).catch((e) => e);
  assert.ok(error instanceof ReasonixError);
  assert.equal(error.code, "config.untrusted_provider_key");
  assert.equal(
    error.message,
    `Cannot send "DEEPSEEK_API_KEY" to provider "evil" declared in "${file}": ` +
      `host "evil.example.com" is not a host your own config uses that key for`,
  );
  assert.match(error.hint!, /reasonix trust-key evil/);
  assert.doesNotMatch(`${error.message} ${error.hint}`, /sk-secret/);
});

Deno.test("resolveCredential() refuses a project provider that replaces a built-in by name", async () => {
  await using fx = await fixture();
  await fx.write(
    join(fx.workspace, "reasonix.toml"),
    projectProvider("deepseek-flash", "https://evil.example.com"),
  );
  await fx.write(fx.paths.envFile, "DEEPSEEK_API_KEY=sk-file\n");
  const error = await credentialFor(fx, "deepseek-flash").catch((e) => e);
  assert.equal(error.code, "config.untrusted_provider_key");
});

Deno.test("resolveCredential() allows a project provider on the same host as a user provider", async () => {
  await using fx = await fixture();
  await fx.write(join(fx.workspace, "reasonix.toml"), projectProvider("mine", "https://API.deepseek.com/v1"));
  assert.deepEqual(await credentialFor(fx, "mine", { DEEPSEEK_API_KEY: "sk" }), { key: "sk", source: "env" });
});

Deno.test("resolveCredential() refuses the same host over another scheme or with another variable", async () => {
  await using fx = await fixture();
  await fx.write(join(fx.workspace, "reasonix.toml"), projectProvider("plain", "http://api.deepseek.com"));
  const plain = await credentialFor(fx, "plain", { DEEPSEEK_API_KEY: "sk" }).catch((e) => e);
  assert.equal(plain.code, "config.untrusted_provider_key");
  await fx.write(
    join(fx.workspace, "reasonix.toml"),
    projectProvider("other", "https://api.deepseek.com", "OTHER"),
  );
  const other = await credentialFor(fx, "other", { OTHER: "sk" }).catch((e) => e);
  assert.equal(other.code, "config.untrusted_provider_key");
});

Deno.test("resolveCredential() allows a project provider whose pairing was approved", async () => {
  await using fx = await fixture();
  await fx.write(join(fx.workspace, "reasonix.toml"), projectProvider("proxy", "https://proxy.example.com"));
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  await approveKeyPairing(fx.paths, fx.workspace, keyPairingFor(resolveModel(config, "proxy").provider));
  assert.deepEqual(await credentialFor(fx, "proxy", { DEEPSEEK_API_KEY: "sk" }), {
    key: "sk",
    source: "env",
  });
});

Deno.test("isLoopback() accepts 127.0.0.0/8, localhost and ::1 only", () => {
  const loopback = ["http://127.0.0.1:1", "http://127.8.9.10", "http://localhost:11434", "http://[::1]:80"];
  const remote = ["http://128.0.0.1", "https://localhost.example.com", "http://10.0.0.1", "not a url"];
  assert.deepEqual(loopback.map(isLoopback), [true, true, true, true]);
  assert.deepEqual(remote.map(isLoopback), [false, false, false, false]);
});

Deno.test("resolveCredential() allows a project provider once the whole reasonix.toml is trusted", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.envFile, "DEEPSEEK_API_KEY=sk-file\n");
  const file = await fx.write(
    join(fx.workspace, "reasonix.toml"),
    projectProvider("proxy", "https://proxy.example.com"),
  );
  await assert.rejects(credentialFor(fx, "m-proxy"), /Cannot send "DEEPSEEK_API_KEY"/);
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  await trustProjectConfig(fx.paths, fx.workspace, { file, sha256: config.project!.sha256 });
  assert.deepEqual(await credentialFor(fx, "m-proxy"), { key: "sk-file", source: "dotenv" });
  await Deno.writeTextFile(file, projectProvider("proxy", "https://evil.example.com"));
  await assert.rejects(credentialFor(fx, "m-proxy"), /Cannot send "DEEPSEEK_API_KEY"/);
});

Deno.test("resolveCredential() treats an empty value as not set, even for a loopback provider", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    projectProvider("local", "http://127.0.0.1:8080/v1", "LOCAL_KEY"),
  );
  await fx.write(fx.paths.envFile, "LOCAL_KEY=\nDEEPSEEK_API_KEY=''\n");
  for (
    const [model, env] of [["local", {}], ["local", { LOCAL_KEY: "  " }], ["deepseek-flash", {}]] as const
  ) {
    const error = await credentialFor(fx, model, env).catch((e) => e);
    assert.ok(error instanceof ReasonixError, `${model}: ${error}`);
    assert.equal(error.code, "config.missing_key");
    assert.match(error.message, /"(LOCAL_KEY|DEEPSEEK_API_KEY)" is not set/);
  }
});

Deno.test("resolveCredential() treats an empty environment variable as not set for a loopback provider", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    projectProvider("local", "http://127.0.0.1:8080/v1", "LOCAL_KEY"),
  );
  const error = await credentialFor(fx, "local", { LOCAL_KEY: "" }).catch((e) => e);
  assert.equal(error.code, "config.missing_key");
  assert.deepEqual(await credentialFor(fx, "local"), { source: "none" }, "absent still sends no key");
});

Deno.test("resolveCredential() falls back to .env when the environment variable is empty", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.envFile, "DEEPSEEK_API_KEY=sk-file\n");
  assert.deepEqual(await credentialFor(fx, "deepseek-flash", { DEEPSEEK_API_KEY: "" }), {
    key: "sk-file",
    source: "dotenv",
  });
});

Deno.test("resolveCredential() refuses a key with control bytes, naming its variable and place, not its value", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.envFile, '# keys\nDEEPSEEK_API_KEY="sk-secret\\nX-Injected: 1"\n');
  const fromFile = await credentialFor(fx, "deepseek-flash").catch((e) => e);
  assert.ok(fromFile instanceof ReasonixError, String(fromFile));
  assert.equal(fromFile.code, "config.invalid_key");
  assert.equal(
    fromFile.message,
    `Cannot use DEEPSEEK_API_KEY from ${fx.paths.envFile}:2: its value contains a control character ` +
      "(such as a newline, tab or NUL) at position 10",
  );
  const fromEnv = await credentialFor(fx, "deepseek-flash", { DEEPSEEK_API_KEY: "sk-secret\u001b[31m" })
    .catch((e) => e);
  assert.equal(fromEnv.code, "config.invalid_key");
  assert.match(fromEnv.message, /^Cannot use DEEPSEEK_API_KEY from the environment: .*control character/);
  const wide = await credentialFor(fx, "deepseek-flash", { DEEPSEEK_API_KEY: "sk-secret\u200b" }).catch((e) =>
    e
  );
  assert.match(wide.message, /not printable ASCII at position 10/);
  for (const error of [fromFile, fromEnv, wide]) {
    assert.doesNotMatch(`${error.message} ${error.hint}`, /secret/);
  }
});

Deno.test("resolveCredential() reports skipped .env lines with file:line", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.envFile, "DEEPSEEK_API_KEY=sk-file\nOTHER_KEY sk-other\n");
  assert.deepEqual(await credentialFor(fx, "deepseek-flash"), {
    key: "sk-file",
    source: "dotenv",
    warnings: [`${fx.paths.envFile}:2: skipped: expected NAME=value`],
  });
  await fx.write(fx.paths.envFile, "DEEPSEEK_API_KEY sk-file\n");
  const error = await credentialFor(fx, "deepseek-flash").catch((e) => e);
  assert.equal(error.code, "config.missing_key");
  assert.match(error.hint, /\(skipped: .*\.env:1: skipped: expected NAME=value\)$/);
  assert.doesNotMatch(error.hint, /sk-file/);
});
