import assert from "node:assert/strict";
import { join } from "node:path";
import { builtinConfig } from "../../src/config/builtin.ts";
import { ConfigError } from "../../src/config/errors.ts";
import { loadConfig } from "../../src/config/load.ts";
import { ReasonixError } from "../../src/lib/errors.ts";
import { trustProjectConfig } from "../../src/config/project_trust.ts";
import { type Fixture, fixture } from "./_fixture.ts";

/** `reasonix trust` of the project file as it is now. */
async function trust(fx: Fixture, file: string): Promise<void> {
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  await trustProjectConfig(fx.paths, fx.workspace, { file, sha256: config.project!.sha256 });
}

Deno.test("loadConfig() with no files returns the built-in defaults", async () => {
  await using fx = await fixture();
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config, builtinConfig());
  assert.equal(config.defaultModel, "deepseek-flash");
  assert.deepEqual(config.providers.map((p) => [p.name, p.models, p.reasoningProtocol]), [
    ["deepseek-flash", ["deepseek-flash"], "deepseek"],
    ["deepseek-pro", ["deepseek-v4-pro"], "deepseek"],
  ]);
});

Deno.test("loadConfig() applies legacy < global < project < flags", async () => {
  await using fx = await fixture();
  const legacy = await fx.write(
    join(fx.userHome, ".config/reasonix/config.toml"),
    "[tools]\nbash_timeout_seconds = 10\noutput_budget_bytes = 11\n[network]\nmax_retries = 1\n[agent]\nmax_steps = 5\n",
  );
  const global = await fx.write(
    fx.paths.globalConfigFile,
    '[tools]\noutput_budget_bytes = 22\n[network]\nretry_base_ms = 7\n[agent]\nmax_steps = 6\neffort = "low"\n',
  );
  const project = await fx.write(join(fx.workspace, "reasonix.toml"), "[agent]\nmax_steps = 7\n");
  const withoutFlags = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(withoutFlags.files, [legacy, global, project]);
  assert.deepEqual(withoutFlags.tools, {
    enabled: [],
    bashTimeoutSeconds: 10,
    outputBudgetBytes: 22,
    webFetchAllowPrivate: [],
    mcpStartupTimeoutSeconds: 30,
    mcpCallTimeoutSeconds: 300,
  });
  assert.deepEqual(withoutFlags.network, {
    maxRetries: 1,
    retryBaseMs: 7,
    connectTimeoutSeconds: 15,
    firstByteTimeoutSeconds: 120,
    idleTimeoutSeconds: 90,
  });
  assert.deepEqual(withoutFlags.agent, { maxSteps: 7, effort: "low" });
  const withFlags = await loadConfig({
    workspace: fx.workspace,
    paths: fx.paths,
    flags: { maxSteps: 8, effort: "max", permissionMode: "danger-full-access", addDirs: ["../extra"] },
  });
  assert.deepEqual(withFlags.agent, { maxSteps: 8, effort: "max" });
  assert.equal(withFlags.permissions.mode, "yolo");
  assert.deepEqual(withFlags.sandbox.allowWrite, [join(fx.root, "extra")]);
});

Deno.test("loadConfig() reads only the first existing legacy file", async () => {
  await using fx = await fixture();
  const paths = {
    ...fx.paths,
    legacyConfigFiles: [join(fx.root, "missing.toml"), join(fx.root, "a.toml"), join(fx.root, "b.toml")],
  };
  await fx.write(join(fx.root, "a.toml"), "[agent]\nmax_steps = 1\n");
  await fx.write(join(fx.root, "b.toml"), '[agent]\nmax_steps = 2\neffort = "max"\n');
  const config = await loadConfig({ workspace: fx.workspace, paths });
  assert.deepEqual(config.files, [join(fx.root, "a.toml")]);
  assert.deepEqual(config.agent, { maxSteps: 1, effort: "auto" });
});

Deno.test("loadConfig() never reads legacy files when REASONIX_HOME is set", async () => {
  await using fx = await fixture({ REASONIX_HOME: "$ROOT/rhome" });
  await fx.write(join(fx.userHome, ".config/reasonix/config.toml"), "[agent]\nmax_steps = 9\n");
  await fx.write(join(fx.userHome, ".reasonix/config.toml"), "[agent]\nmax_steps = 9\n");
  await fx.write(join(fx.root, "rhome/config.toml"), "[agent]\nmax_steps = 3\n");
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.files, [join(fx.root, "rhome/config.toml")]);
  assert.equal(config.agent.maxSteps, 3);
});

Deno.test("loadConfig() leaves the legacy file byte for byte", async () => {
  await using fx = await fixture();
  const text = "# mine\n[agent]\nmax_steps = 4 # keep\nfoo = 1\n";
  const legacy = await fx.write(join(fx.userHome, ".config/reasonix/config.toml"), text);
  await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(await Deno.readTextFile(legacy), text);
  assert.deepEqual([...Deno.readDirSync(fx.userHome)].map((entry) => entry.name), [".config"]);
});

Deno.test("loadConfig() merges providers by name over the built-ins", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `default_model = "local"
[[providers]]
name = "deepseek-pro"
base_url = "https://proxy.example.com/v1/"
models = ["deepseek-v4-pro", "deepseek-flash"]
default = "deepseek-v4-pro"
api_key_env = "PROXY_KEY"
price = { input = 1, output = 2, currency = "CNY" }

[[providers]]
name = "local"
base_url = "http://127.0.0.1:11434/v1"
model = "qwen"
`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.providers.map((p) => [p.name, p.source]), [
    ["deepseek-flash", "builtin"],
    ["deepseek-pro", "global"],
    ["local", "global"],
  ]);
  assert.deepEqual(config.providers[1], {
    name: "deepseek-pro",
    kind: "openai",
    baseUrl: "https://proxy.example.com/v1",
    models: ["deepseek-v4-pro", "deepseek-flash"],
    defaultModel: "deepseek-v4-pro",
    apiKeyEnv: "PROXY_KEY",
    contextWindow: 128000,
    cacheTtlMinutes: 1440,
    maxOutputTokens: 0,
    reasoningProtocol: "none",
    price: { cacheHit: 1, input: 1, output: 2, currency: "CNY" },
    source: "global",
    file: fx.paths.globalConfigFile,
  });
  assert.equal(config.providers[2]!.defaultModel, "qwen");
  assert.equal(config.defaultModel, "local");
});

Deno.test("loadConfig() infers the deepseek protocol from a *.deepseek.com host unless told", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[[providers]]
name = "a"
base_url = "https://eu.api.deepseek.com"
model = "m"
[[providers]]
name = "b"
base_url = "https://api.deepseek.com"
model = "m"
reasoning_protocol = "none"
[[providers]]
name = "c"
base_url = "https://example.com"
model = "m"
reasoning_protocol = "deepseek"
`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.providers.slice(2).map((p) => p.reasoningProtocol), [
    "deepseek",
    "none",
    "deepseek",
  ]);
});

Deno.test("loadConfig() reports malformed TOML at file:line:col", async () => {
  await using fx = await fixture();
  const file = await fx.write(join(fx.workspace, "reasonix.toml"), "[agent]\nmax_steps = 3\neffort = = 2\n");
  const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.ok(error instanceof ConfigError);
  assert.equal(error.code, "config.parse");
  assert.deepEqual([error.file, error.line, error.column], [file, 3, 10]);
  assert.equal(error.message, `${file}:3:10: Cannot parse TOML: invalid value`);
});

Deno.test("loadConfig() reports a wrong type in a nested table at the key", async () => {
  await using fx = await fixture();
  const file = await fx.write(
    join(fx.workspace, "reasonix.toml"),
    '# tools\n\n[agent]\nmax_steps = 1\n\n[tools]\n    enabled = []\n    bash_timeout_seconds = "lots"\n',
  );
  const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.ok(error instanceof ConfigError);
  assert.equal(error.code, "config.type");
  assert.equal(error.key, "tools.bash_timeout_seconds");
  assert.equal(
    error.message,
    `${file}:8:5: Cannot read "tools.bash_timeout_seconds": expected a number, got "lots"`,
  );
});

Deno.test("loadConfig() reports a wrong value in [[providers]] item 2 at its line", async () => {
  await using fx = await fixture();
  const file = await fx.write(
    fx.paths.globalConfigFile,
    `[[providers]]
name = "one"
base_url = "https://one.example.com"
model = "m1"
context_window = 1000

[[providers]]
name = "two"
base_url = "https://two.example.com"
model = "m2"
  context_window = -5
`,
  );
  const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.ok(error instanceof ConfigError);
  assert.equal(
    error.message,
    `${file}:11:3: Cannot read "providers[1].context_window": expected an integer >= 0, got -5`,
  );
});

Deno.test("loadConfig() locates values in inline tables, dotted keys and arrays", async () => {
  await using fx = await fixture();
  const file = await fx.write(
    fx.paths.globalConfigFile,
    `permissions.allow = ["read_file", 3]\n`,
  );
  const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.equal(error.message, `${file}:1:35: Cannot read "permissions.allow[1]": expected a string, got 3`);
  await fx.write(
    fx.paths.globalConfigFile,
    `[[providers]]\nname = "p"\nbase_url = "https://p.example.com"\nmodel = "m"\nprice = { input = 1, output = "x" }\n`,
  );
  const inline = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.equal(
    inline.message,
    `${file}:5:22: Cannot read "providers[0].price.output": expected a number, got "x"`,
  );
});

Deno.test("loadConfig() notes a provider of a Go kind it does not speak yet and refuses an unknown kind", async () => {
  await using fx = await fixture();
  const file = fx.paths.globalConfigFile;
  const provider = (kind: string) =>
    `[[providers]]\nname = "p"\nkind = "${kind}"\nbase_url = "https://p.example.com"\nmodel = "m"\n`;
  await fx.write(file, provider("anthropic"));
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.warnings, []);
  assert.deepEqual(config.unused, [{ file, line: 3, column: 1, key: `providers[0].kind = "anthropic"` }]);
  assert.equal(config.providers.some((p) => p.name === "p"), false);
  await fx.write(file, `default_model = "p"\n${provider("anthropic")}`);
  const chosen = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.match(chosen.message, /Cannot read "default_model": Unknown model "p"/);
  assert.equal(chosen.hint, `${file}:4: a provider of kind "anthropic" is not used yet`);
  await fx.write(file, provider("gemini"));
  const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.equal(
    error.message,
    `${file}:3:1: Cannot read "providers[0].kind": expected one of "openai", "anthropic", "responses", got "gemini"`,
  );
});

Deno.test("loadConfig() warns about unknown keys and notes the Go keys not used yet, instead of failing", async () => {
  await using fx = await fixture();
  const file = await fx.write(
    join(fx.workspace, "reasonix.toml"),
    "config_version = 10\n[agent]\ntemperature = 0.5\nmax_step = 3\n[lsp]\nenabled = true\n[mystery]\nx = 1\n",
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const once = config.warnings[0]?.once;
  assert.match(once ?? "", /^[0-9a-f]{64}$/, "marked to show once per content of the file");
  assert.deepEqual(config.warnings, [
    { file, line: 4, column: 1, message: `unknown key "agent.max_step"`, once },
    { file, line: 7, column: 2, message: `unknown key "mystery"`, once },
  ]);
  assert.deepEqual(config.unused, [
    { file, line: 3, column: 1, key: "agent.temperature" },
    { file, line: 5, column: 2, key: "lsp" },
  ]);
  assert.equal(config.agent.maxSteps, 0);
});

Deno.test("loadConfig() maps Go permission modes and accumulates deny rules", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[permissions]\nmode = "read-only"\nallow = ["a"]\ndeny = ["x"]\n`,
  );
  const project = await fx.write(
    join(fx.workspace, "reasonix.toml"),
    `[permissions]\nallow = ["b"]\ndeny = ["y"]\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(
    config.warnings.map((w) => [w.file, w.line]),
    [[project, 2]],
    "project allow rules are ignored",
  );
  assert.match(config.warnings[0]!.message, /may only tighten your own settings and is ignored/);
  assert.deepEqual(config.permissions, {
    mode: "ask",
    allow: ["a"],
    ask: [],
    deny: ["x", "y"],
    allowDynamicBash: false,
  });
});

Deno.test("loadConfig() ignores yolo and display_currency from a project file", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[billing]\ndisplay_currency = "CNY"\n`);
  const file = await fx.write(
    join(fx.workspace, "reasonix.toml"),
    `[permissions]\nmode = "danger-full-access"\n[billing]\ndisplay_currency = "USD"\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(config.permissions.mode, "ask");
  assert.equal(config.billing.currency, "CNY");
  assert.deepEqual(config.warnings.map((w) => [w.file, w.line]), [[file, 2], [file, 4]]);
});

Deno.test("loadConfig() resolves sandbox paths of a trusted project against the workspace", async () => {
  await using fx = await fixture();
  const file = await fx.write(
    join(fx.workspace, "reasonix.toml"),
    `[sandbox]\nallow_write = ["build", "/abs"]\nforbid_read = ["~/secrets"]\n`,
  );
  await trust(fx, file);
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.sandbox, {
    allowWrite: [join(fx.workspace, "build"), "/abs"],
    forbidRead: [join(fx.userHome, "secrets")],
    bash: true,
    require: false,
    protectGit: true,
  });
});

Deno.test("loadConfig() reads [sandbox] network; a project may turn it off but not back on", async () => {
  await using fx = await fixture();
  const project = join(fx.workspace, "reasonix.toml");
  await fx.write(project, `[sandbox]\nnetwork = false\n`);
  assert.equal((await loadConfig({ workspace: fx.workspace, paths: fx.paths })).sandbox.network, false);
  await fx.write(fx.paths.globalConfigFile, `[sandbox]\nnetwork = false\n`);
  await fx.write(project, `[sandbox]\nnetwork = true\n`);
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(config.sandbox.network, false);
  assert.deepEqual(config.warnings.map((w) => [w.file, w.line, w.column]), [[project, 2, 1]]);
  await fx.write(project, `[sandbox]\nnetwork = "yes"\n`);
  await assert.rejects(loadConfig({ workspace: fx.workspace, paths: fx.paths }), /expected a boolean/);
});

Deno.test("loadConfig() reads a trusted project's system_prompt_file but not from outside its workspace", async () => {
  await using fx = await fixture();
  await fx.write(join(fx.workspace, "prompt.md"), "Be brief");
  await trust(
    fx,
    await fx.write(join(fx.workspace, "reasonix.toml"), `[agent]\nsystem_prompt_file = "prompt.md"\n`),
  );
  assert.equal(
    (await loadConfig({ workspace: fx.workspace, paths: fx.paths })).agent.systemPrompt,
    "Be brief",
  );
  const file = await fx.write(
    join(fx.workspace, "reasonix.toml"),
    `[agent]\nsystem_prompt_file = "../user/x"\n`,
  );
  await trust(fx, file);
  const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.equal(
    error.message,
    `${file}:2:1: Cannot read "agent.system_prompt_file": "../user/x" is outside the workspace`,
  );
});

Deno.test("loadConfig() merges model overrides key by key and lets --effort win", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[model_overrides.deepseek-flash]\ncontext_window = 5000\neffort = "low"\n`,
  );
  await fx.write(
    join(fx.workspace, "reasonix.toml"),
    `[model_overrides."deepseek-flash"]\nmax_output_tokens = 100\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.modelOverrides, {
    "deepseek-flash": { contextWindow: 5000, maxOutputTokens: 100, effort: "low" },
  });
  const flagged = await loadConfig({ workspace: fx.workspace, paths: fx.paths, flags: { effort: "high" } });
  assert.deepEqual(flagged.modelOverrides, {
    "deepseek-flash": { contextWindow: 5000, maxOutputTokens: 100 },
  });
});

Deno.test("loadConfig() rejects an unknown default_model at its position", async () => {
  await using fx = await fixture();
  const file = await fx.write(join(fx.workspace, "reasonix.toml"), `\ndefault_model = "nope"\n`);
  const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.ok(error instanceof ConfigError);
  assert.match(error.message, new RegExp(`^${file}:2:1: Cannot read "default_model": Unknown model "nope"`));
  const flagged = await loadConfig({
    workspace: fx.workspace,
    paths: fx.paths,
    flags: { model: "deepseek-pro" },
  });
  assert.equal(flagged.defaultModel, "deepseek-pro");
});

Deno.test("loadConfig() normalises effort aliases from a flag and from a file", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    '[agent]\neffort = "minimal"\n[model_overrides.m]\neffort = "xhigh"\n',
  );
  const fromFile = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(fromFile.agent.effort, "low");
  assert.equal(fromFile.modelOverrides.m?.effort, "high");
  const fromFlag = await loadConfig({
    workspace: fx.workspace,
    paths: fx.paths,
    flags: { effort: "Medium" },
  });
  assert.equal(fromFlag.agent.effort, "high");
});

Deno.test("loadConfig() rejects bad flag values", async () => {
  await using fx = await fixture();
  for (const flags of [{ effort: "extreme" }, { permissionMode: "nope" }, { maxSteps: -1 }]) {
    const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths, flags }).catch((e) => e);
    assert.ok(error instanceof ReasonixError);
    assert.equal(error.code, "config.invalid");
  }
});

Deno.test("loadConfig() accepts a Go Reasonix canonical config without a warning", async () => {
  await using fx = await fixture();
  const file = await fx.write(
    fx.paths.globalConfigFile,
    `config_version = 10
default_model = "deepseek-flash"
language = "en"

[agent]
temperature = 0.0
max_steps = 0
keep = 4

[permissions]
mode = "workspace-write"

[[providers]]
name = "deepseek-flash"
display_name = "DeepSeek Flash"
kind = "openai"
base_url = "https://api.deepseek.com"
models = ["deepseek-v4-flash", "deepseek-v4-flash-vision-exp"]
default = "deepseek-v4-flash"
api_key_env = "DEEPSEEK_API_KEY"
context_window = 1000000
max_output_tokens = -1
thinking = "enabled"
supported_efforts = ["disabled", "low", "high", "max"]
default_effort = "high"
reasoning_protocol = ""
web_search = true
extra_body = { foo = 1 }

[ui]
theme = "dark"
`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.warnings, []);
  assert.deepEqual(config.unused.map((note) => [note.line, note.key]).slice(0, 2), [
    [6, "agent.temperature"],
    [15, "providers[0].display_name"],
  ]);
  assert.equal(config.language, "en");
  assert.equal(config.ui.theme, "dark");
  assert.equal(config.permissions.mode, "auto");
  assert.deepEqual(config.providers[0], {
    name: "deepseek-flash",
    kind: "openai",
    baseUrl: "https://api.deepseek.com",
    models: ["deepseek-v4-flash", "deepseek-v4-flash-vision-exp"],
    defaultModel: "deepseek-v4-flash",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    contextWindow: 1000000,
    cacheTtlMinutes: 1440,
    maxOutputTokens: 0,
    reasoningProtocol: "deepseek",
    source: "global",
    file,
  });
});

Deno.test("loadConfig() gives providers a per-vendor cache TTL that cache_ttl_minutes overrides", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    [
      `[[providers]]`,
      `name = "claude"`,
      `kind = "openai"`,
      `base_url = "https://api.anthropic.com/v1"`,
      `model = "c"`,
      `[[providers]]`,
      `name = "qwen"`,
      `kind = "openai"`,
      `base_url = "https://dashscope.aliyuncs.com/compatible-mode/v1"`,
      `model = "q"`,
      `cache_ttl_minutes = 30`,
      `[[providers]]`,
      `name = "other"`,
      `kind = "openai"`,
      `base_url = "https://llm.example.com"`,
      `model = "o"`,
      ``,
    ].join("\n"),
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const ttl = Object.fromEntries(config.providers.map((p) => [p.name, p.cacheTtlMinutes]));
  assert.deepEqual(ttl, { "deepseek-flash": 1440, "deepseek-pro": 1440, claude: 5, qwen: 30, other: 1440 });
});
