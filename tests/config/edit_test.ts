import assert from "node:assert/strict";
import { join } from "node:path";
import { builtinConfig } from "../../src/config/builtin.ts";
import { getConfigValue, parseDottedKey, setConfigKey, setTomlKey } from "../../src/config/edit.ts";
import { ConfigError } from "../../src/config/errors.ts";
import { loadConfig } from "../../src/config/load.ts";
import { ReasonixError } from "../../src/lib/errors.ts";
import { fixture } from "./_fixture.ts";

const ORIGINAL = `# My Reasonix config
default_model = "deepseek-pro"   # the good one

[agent]
# steps
max_steps = 10 # trailing
custom_thing = "kept"

[tools]
  enabled = [
    "read_file", # multi-line
    "bash",
  ]

[[providers]]
name = "p"
base_url = "https://p.example.com"
model = "m"
price = { input = 1, output = 2 }

[mystery]
x = 1
`;

Deno.test("setTomlKey() changes only the value of an existing key", () => {
  const edited = setTomlKey(ORIGINAL, "agent.max_steps", 25);
  assert.equal(edited, ORIGINAL.replace("max_steps = 10 #", "max_steps = 25 #"));
  const top = setTomlKey(ORIGINAL, "default_model", "deepseek-flash");
  assert.equal(top, ORIGINAL.replace(`"deepseek-pro"   #`, `"deepseek-flash"   #`));
  const list = setTomlKey(ORIGINAL, "tools.enabled", ["a", "b c"]);
  assert.equal(list, ORIGINAL.replace(/\[\n {4}"read_file".*\n {4}"bash",\n {2}\]/, `["a", "b c"]`));
});

Deno.test("setTomlKey() adds a key at the end of an existing table, with its indentation", () => {
  const edited = setTomlKey(ORIGINAL, "tools.bash_timeout_seconds", 60);
  assert.equal(
    edited,
    ORIGINAL.replace(`    "bash",\n  ]\n`, `    "bash",\n  ]\n  bash_timeout_seconds = 60\n`),
  );
  const agent = setTomlKey(ORIGINAL, "agent.effort", "max");
  assert.equal(agent, ORIGINAL.replace(`custom_thing = "kept"\n`, `custom_thing = "kept"\neffort = "max"\n`));
});

Deno.test("setTomlKey() creates a missing table at the end", () => {
  const edited = setTomlKey(ORIGINAL, "network.max_retries", 5);
  assert.equal(edited, ORIGINAL + "\n[network]\nmax_retries = 5\n");
  assert.equal(setTomlKey("", "network.max_retries", 5), "[network]\nmax_retries = 5\n");
  assert.equal(setTomlKey("a = 1", "b.c", true), "a = 1\n\n[b]\nc = true\n");
});

Deno.test("setTomlKey() puts a new top-level key above the first table and its comments", () => {
  const text = "# header\n\n# agent settings\n[agent]\nmax_steps = 1\n";
  assert.equal(
    setTomlKey(text, "default_model", "x"),
    `# header\n\ndefault_model = "x"\n\n# agent settings\n[agent]\nmax_steps = 1\n`,
  );
  assert.equal(setTomlKey("a = 1\n[t]\n", "b", 2), "a = 1\nb = 2\n[t]\n");
});

Deno.test("setTomlKey() writes dotted and quoted keys", () => {
  assert.equal(
    setTomlKey("tools.enabled = []\n", "tools.bash_timeout_seconds", 5),
    "tools.enabled = []\ntools.bash_timeout_seconds = 5\n",
  );
  assert.equal(
    setTomlKey("[x]\n", `model_overrides."deepseek-v4.1".effort`, "low"),
    `[x]\n\n[model_overrides."deepseek-v4.1"]\neffort = "low"\n`,
  );
  const related = '[model_overrides.a]\neffort = "low"\n\n[ui]\ntheme = 1\n';
  assert.equal(
    setTomlKey(related, "model_overrides.b.effort", "max"),
    '[model_overrides.a]\neffort = "low"\n\n[model_overrides.b]\neffort = "max"\n\n[ui]\ntheme = 1\n',
  );
});

Deno.test("setTomlKey() edits inline tables and [[array]] items in place", () => {
  const price = setTomlKey(ORIGINAL, "providers.0.price.cache_hit", 0.5);
  assert.equal(
    price,
    ORIGINAL.replace("{ input = 1, output = 2 }", "{ input = 1, output = 2, cache_hit = 0.5 }"),
  );
  const url = setTomlKey(ORIGINAL, "providers.0.base_url", "https://q.example.com");
  assert.equal(url, ORIGINAL.replace("https://p.example.com", "https://q.example.com"));
  const added = setTomlKey(ORIGINAL, "providers.0.context_window", 9);
  assert.equal(added, ORIGINAL.replace("output = 2 }\n", "output = 2 }\ncontext_window = 9\n"));
  assert.equal(setTomlKey("agent = {}\n", "agent.max_steps", 3), "agent = { max_steps = 3 }\n");
});

Deno.test("setTomlKey() refuses to replace a table or write under a value", () => {
  assert.throws(() => setTomlKey(ORIGINAL, "agent", "x"), /Cannot set "agent": it is a table/);
  assert.throws(() => setTomlKey(ORIGINAL, "default_model.x", "y"), /"default_model" is not a table/);
  assert.throws(() => setTomlKey(ORIGINAL, "providers.3.name", "y"), /no such array item/);
});

Deno.test("setConfigKey() keeps everything else byte for byte and round-trips through loadConfig", async () => {
  await using fx = await fixture();
  const file = await fx.write(fx.paths.globalConfigFile, ORIGINAL);
  await setConfigKey(file, "tools.bash_timeout_seconds", "45");
  await setConfigKey(file, "agent.max_steps", "12");
  await setConfigKey(file, "permissions.deny", "bash(rm *), write_file");
  await setConfigKey(file, "network.max_retries", "2");
  const text = await Deno.readTextFile(file);
  assert.equal(
    text,
    ORIGINAL.replace("max_steps = 10 #", "max_steps = 12 #")
      .replace(`    "bash",\n  ]\n`, `    "bash",\n  ]\n  bash_timeout_seconds = 45\n`) +
      `\n[permissions]\ndeny = ["bash(rm *)", "write_file"]\n\n[network]\nmax_retries = 2\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(config.tools.bashTimeoutSeconds, 45);
  assert.deepEqual(config.permissions.deny, ["bash(rm *)", "write_file"]);
  assert.deepEqual([...Deno.readDirSync(fx.paths.home)].map((entry) => entry.name), ["config.toml"]);
});

Deno.test("setConfigKey() creates the file and parses values by the key's type", async () => {
  await using fx = await fixture();
  const file = join(fx.workspace, "sub", "reasonix.toml");
  await setConfigKey(file, "default_model", "deepseek-pro");
  await setConfigKey(file, "tools.enabled", `["read_file", "bash"]`);
  await setConfigKey(file, "agent.system_prompt", "42");
  assert.equal(
    await Deno.readTextFile(file),
    `default_model = "deepseek-pro"\n\n[tools]\nenabled = ["read_file", "bash"]\n\n[agent]\nsystem_prompt = "42"\n`,
  );
});

Deno.test("setConfigKey() rejects bad values, unknown keys and a broken file without writing", async () => {
  await using fx = await fixture();
  const file = await fx.write(fx.paths.globalConfigFile, "[tools]\n");
  const cases: [string, string, RegExp][] = [
    [
      "tools.bash_timeout_seconds",
      "lots",
      /Cannot set "tools.bash_timeout_seconds": expected a number, got "lots"/,
    ],
    ["tools.bash_timeout_seconds", "0", /expected an integer >= 1, got "0"/],
    ["permissions.mode", "nope", /expected one of "ask", "auto", "yolo", "plan"/],
    ["agent.nope", "1", /Cannot set "agent.nope": unknown key/],
    ["lsp.enabled", "true", /accepted but not used yet/],
  ];
  for (const [key, value, message] of cases) {
    await assert.rejects(setConfigKey(file, key, value), (error: unknown) => {
      assert.ok(error instanceof ReasonixError);
      assert.match(error.message, message);
      return true;
    });
  }
  assert.equal(await Deno.readTextFile(file), "[tools]\n");
  await fx.write(file, "[tools\n");
  await assert.rejects(setConfigKey(file, "agent.max_steps", "1"), ConfigError);
  assert.equal(await Deno.readTextFile(file), "[tools\n");
});

Deno.test("getConfigValue() reads resolved values by their TOML keys", () => {
  const config = builtinConfig();
  config.modelOverrides["deepseek-flash"] = { contextWindow: 5 };
  assert.equal(getConfigValue(config, "tools.bash_timeout_seconds"), 120);
  assert.equal(getConfigValue(config, "default_model"), "deepseek-flash");
  assert.equal(getConfigValue(config, "billing.display_currency"), "auto");
  assert.equal(getConfigValue(config, "providers.deepseek-pro.base_url"), "https://api.deepseek.com");
  assert.equal(getConfigValue(config, "model_overrides.deepseek-flash.context_window"), 5);
  assert.deepEqual(getConfigValue(config, "network"), {
    maxRetries: 3,
    retryBaseMs: 1000,
    connectTimeoutSeconds: 15,
    firstByteTimeoutSeconds: 120,
    idleTimeoutSeconds: 90,
  });
  assert.equal(getConfigValue(config, "network.idle_timeout_seconds"), 90);
  assert.equal(getConfigValue(config, "agent.system_prompt"), undefined);
  assert.throws(() => getConfigValue(config, "agent.bogus"), /unknown key/);
});

Deno.test("parseDottedKey() splits on dots outside quotes", () => {
  assert.deepEqual(parseDottedKey(`a.b."c.d".'e'`), ["a", "b", "c.d", "e"]);
  assert.throws(() => parseDottedKey("a..b"), /not a valid dotted key/);
});
