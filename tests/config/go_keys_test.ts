import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { setConfigKey } from "../../src/config/edit.ts";
import { warningsToShow } from "../../src/config/warn_once.ts";
import { ConfigError } from "../../src/config/errors.ts";
import { fixture } from "./_fixture.ts";

const GO_CONFIG = resolve(import.meta.dirname!, "../fixtures/go_1.38.11_first_run_config.toml");

Deno.test("loadConfig() reads the config.toml the Go Reasonix wrote on first run without a warning", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, await Deno.readTextFile(GO_CONFIG));
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.warnings, []);
  assert.equal(config.unused.length, 27, "[skills] is read now");
  assert.equal(config.sandbox.bash, true, `bash = "enforce"`);
  assert.equal(config.sandbox.network, true);
  assert.equal(config.permissions.mode, "ask");
  assert.equal(config.agent.compactRatio, 0.8);
  assert.deepEqual(config.providers.map((p) => [p.name, p.defaultModel, p.price?.currency]), [
    ["deepseek-flash", "deepseek-v4-flash", "USD"],
    ["deepseek-pro", "deepseek-v4-pro", "USD"],
  ]);
});

/** Each enum key of CONTRACTS.md §3.2 and §7 with every value Go documents for it. */
const GO_ENUM_VALUES: [string, string, string[]][] = [
  ["", "language", ["auto", "en", "zh", ""]],
  ["[agent]", "reasoning_language", ["auto", "zh", "en"]],
  ["[agent]", "output_style", ["explanatory", "learning", "concise", "custom", ""]],
  ["[tools.shell]", "prefer", ["auto", "bash", "powershell", "pwsh"]],
  ["[permissions]", "mode", ["ask", "allow", "deny", "read-only", "workspace-write", "danger-full-access"]],
  ["[sandbox]", "bash", ["enforce", "off", ""]],
  ["[ui]", "theme", ["auto", "dark", "light"]],
  ["[billing]", "display_currency", ["auto", "CNY", "USD"]],
  ["[telemetry]", "cli_metrics", ["auto", "on", "off"]],
  ["[network]", "proxy_mode", ["auto", "env", "custom", "off"]],
  ["[network.proxy]", "type", ["http", "https", "socks5", "socks5h"]],
  ["[serve]", "auth_mode", ["none", "token", "password"]],
  ['[[plugins]]\nname = "p"\ncommand = "c"\nurl = "https://m.example.com"', "type", ["stdio", "http", "sse"]],
];

const PROVIDER = `[[providers]]\nname = "p"\nbase_url = "https://p.example.com"\nmodel = "m"\n`;
const GO_PROVIDER_VALUES: [string, string[]][] = [
  ["kind", ["openai", "anthropic"]],
  ["thinking", ["enabled", "disabled"]],
  ["reasoning_protocol", ["deepseek", "glm", "kimi-k3"]],
];

Deno.test("loadConfig() accepts every value Go documents for its enum keys, without a warning", async () => {
  await using fx = await fixture();
  const load = async (text: string) => {
    await fx.write(fx.paths.globalConfigFile, text);
    const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
    assert.deepEqual(config.warnings, [], text);
    return config;
  };
  for (const [table, key, values] of GO_ENUM_VALUES) {
    for (const value of values) await load(`${table}\n${key} = "${value}"\n`);
  }
  for (const [key, values] of GO_PROVIDER_VALUES) {
    for (const value of values) await load(`${PROVIDER}${key} = "${value}"\n`);
  }
  for (const currency of ["$", "¥", "USD", "CNY"]) {
    await load(`${PROVIDER}price = { input = 1, output = 2, currency = "${currency}" }\n`);
  }
});

Deno.test("loadConfig() reads Go's spellings of values as the values they mean here", async () => {
  await using fx = await fixture();
  const load = async (text: string) => {
    await fx.write(fx.paths.globalConfigFile, text);
    return await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  };
  assert.equal((await load(`[sandbox]\nbash = "enforce"\n`)).sandbox.bash, true);
  assert.equal((await load(`[sandbox]\nbash = "off"\n`)).sandbox.bash, false);
  assert.equal((await load(`[sandbox]\nbash = ""\n`)).sandbox.bash, true);
  assert.equal((await load(`[sandbox]\nbash = false\n`)).sandbox.bash, false);
  assert.equal((await load(`[permissions]\nmode = "allow"\n`)).permissions.mode, "auto");
  assert.equal((await load(`[permissions]\nmode = "deny"\n`)).permissions.mode, "ask");
  assert.equal((await load(`language = "zh"\n`)).language, "zh-CN");
  assert.equal((await load(`language = ""\n`)).language, "auto");
  const priced = await load(`${PROVIDER}price = { input = 1, output = 2, currency = "¥" }\n`);
  assert.equal(priced.providers.find((p) => p.name === "p")?.price?.currency, "CNY");
  const uncapped = await load(`[tools]\nbash_timeout_seconds = 0\n`);
  assert.equal(uncapped.tools.bashTimeoutSeconds, 120, "Go's 0 (no cap) is not used yet: the default stays");
  assert.deepEqual(uncapped.unused.map((note) => note.key), ["tools.bash_timeout_seconds = 0"]);
  assert.deepEqual(uncapped.warnings, []);
  const glm = await load(`${PROVIDER}reasoning_protocol = "glm"\n`);
  assert.equal(glm.providers.find((p) => p.name === "p")?.reasoningProtocol, "none");
  assert.deepEqual(glm.unused.map((note) => note.key), [`providers[0].reasoning_protocol = "glm"`]);
});

Deno.test("loadConfig() still refuses a value neither spelling knows, naming both", async () => {
  await using fx = await fixture();
  const file = await fx.write(fx.paths.globalConfigFile, `[sandbox]\nbash = "sometimes"\n`);
  const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.ok(error instanceof ConfigError);
  assert.equal(
    error.message,
    `${file}:2:1: Cannot read "sandbox.bash": expected a boolean or one of "enforce", "off", got "sometimes"`,
  );
});

Deno.test('a project file\'s Go spelling is judged by its meaning: bash = "off" loosens and is ignored', async () => {
  await using fx = await fixture();
  const project = await fx.write(join(fx.workspace, "reasonix.toml"), `[sandbox]\nbash = "off"\n`);
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(config.sandbox.bash, true);
  assert.equal(config.warnings.length, 1);
  assert.equal(config.warnings[0]!.file, project);
  assert.match(config.warnings[0]!.message, /"sandbox.bash" in a project file may only tighten/);
});

Deno.test("setConfigKey() takes Go's spellings too", async () => {
  await using fx = await fixture();
  const file = await fx.write(fx.paths.globalConfigFile, "[sandbox]\nbash = true\n");
  await setConfigKey(file, "sandbox.bash", "off");
  assert.equal(await Deno.readTextFile(file), "[sandbox]\nbash = false\n");
});

Deno.test("warningsToShow() shows an unknown key once per content of its file", async () => {
  await using fx = await fixture();
  const file = fx.paths.globalConfigFile;
  const shown = async (text: string) => {
    await fx.write(file, text);
    const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
    return (await warningsToShow(fx.paths, config)).map((w) => w.message);
  };
  const unknown = `[agent]\nmystery = 1\n`;
  assert.deepEqual(await shown(unknown), [`unknown key "agent.mystery"`]);
  assert.deepEqual(await shown(unknown), []);
  assert.deepEqual(await shown(unknown + "# edited\n"), [`unknown key "agent.mystery"`]);
  assert.deepEqual(await shown(unknown + "# edited\n"), []);
  assert.deepEqual(await shown(`[agent]\n`), []);
  assert.deepEqual(await shown(unknown), [`unknown key "agent.mystery"`], "the old content is new again");
  assert.equal(await Deno.readTextFile(file), unknown, "the user's file is never rewritten");
  const state = JSON.parse(await Deno.readTextFile(fx.paths.configWarningsFile));
  assert.deepEqual(Object.keys(state.files), [file]);
});
