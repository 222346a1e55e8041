import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { modelChoices, testKey } from "../../src/control/setup.ts";
import {
  configTarget,
  customChoice,
  keyEnvFor,
  writeCustomProvider,
  writeDefaultModel,
} from "../../src/control/setup_write.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { scratch } from "./_setup_scratch.ts";

Deno.test("configTarget() is the user's config unless the project's reasonix.toml is asked for", async () => {
  const s = await scratch();
  try {
    assert.equal(configTarget(s.paths, undefined), join(s.home, "config.toml"));
    assert.equal(configTarget(s.paths, { workspace: s.workspace }), join(s.workspace, "reasonix.toml"));
  } finally {
    await s.cleanup();
  }
});

Deno.test("writeDefaultModel() creates a file, edits only default_model in one, leaves a matching one alone", async () => {
  const s = await scratch();
  try {
    const file = s.paths.globalConfigFile;
    assert.equal((await writeDefaultModel(file, "deepseek-pro")).kind, "created");
    assert.match(await Deno.readTextFile(file), /^default_model = "deepseek-pro"$/m);
    const user =
      '# my comment\ndefault_model = "deepseek-pro" # mine\n[tools]\nbash_timeout_seconds = 60 # keep\n';
    await Deno.writeTextFile(file, user);
    assert.deepEqual(await writeDefaultModel(file, "deepseek-flash"), {
      kind: "set",
      file,
      key: "default_model",
    });
    assert.equal(await Deno.readTextFile(file), user.replace('"deepseek-pro"', '"deepseek-flash"'));
    assert.equal((await writeDefaultModel(file, "deepseek-flash")).kind, "unchanged");
  } finally {
    await s.cleanup();
  }
});

Deno.test("writeCustomProvider() appends a [[providers]] entry the config loader reads, once", async () => {
  const s = await scratch();
  try {
    const user = "# mine\n[tools]\nbash_timeout_seconds = 60\n";
    await Deno.writeTextFile(s.paths.globalConfigFile, user);
    const choice = customChoice(
      {
        baseUrl: "https://api.example.com/v1/",
        model: "gpt-x",
        apiKeyEnv: keyEnvFor("https://api.example.com/v1"),
      },
      [],
    );
    assert.equal(choice.ref, "example");
    assert.equal(choice.provider.apiKeyEnv, "EXAMPLE_API_KEY");
    assert.equal((await writeCustomProvider(s.paths, choice)).kind, "set");
    const text = await Deno.readTextFile(s.paths.globalConfigFile);
    assert.ok(text.startsWith(user), text);
    await writeDefaultModel(s.paths.globalConfigFile, choice.ref);
    const config = await loadConfig({ workspace: s.workspace, paths: s.paths });
    const loaded = config.providers.find((provider) => provider.name === "example");
    assert.deepEqual(
      [loaded?.baseUrl, loaded?.defaultModel, loaded?.apiKeyEnv, loaded?.reasoningProtocol],
      ["https://api.example.com/v1", "gpt-x", "EXAMPLE_API_KEY", "none"],
    );
    assert.equal(config.defaultModel, "example");
    const again = customChoice(
      { baseUrl: "https://api.example.com/v1", model: "gpt-x", apiKeyEnv: "X" },
      config.providers,
    );
    assert.equal(again.ref, "example");
    assert.equal((await writeCustomProvider(s.paths, again)).kind, "unchanged");
    const other = customChoice(
      { baseUrl: "https://api.example.com/v1", model: "gpt-y", apiKeyEnv: "X" },
      config.providers,
    );
    assert.equal(other.ref, "example-2");
  } finally {
    await s.cleanup();
  }
});

Deno.test("keyEnvFor() names the variable after the host, and a local server plainly", () => {
  assert.equal(keyEnvFor("https://openrouter.ai/api/v1"), "OPENROUTER_API_KEY");
  assert.equal(keyEnvFor("https://api.openai.com/v1"), "OPENAI_API_KEY");
  assert.equal(keyEnvFor("http://127.0.0.1:8080/v1"), "CUSTOM_API_KEY");
  assert.equal(keyEnvFor("http://localhost:11434/v1"), "CUSTOM_API_KEY");
});

Deno.test("testKey() sends one tiny request; a wrong key fails in plain words without echoing it", async () => {
  const sim = await DeepSeekSim.start({ apiKey: "sk-right", script: [{ content: "ok" }] });
  const s = await scratch();
  try {
    await Deno.writeTextFile(
      s.paths.globalConfigFile,
      `[[providers]]\nname = "deepseek-flash"\nkind = "openai"\nbase_url = "${sim.url}"\nmodel = "deepseek-flash"\napi_key_env = "DEEPSEEK_API_KEY"\n`,
    );
    const [choice] = await modelChoices({ workspace: s.workspace, paths: s.paths, env: {} });
    assert.deepEqual(await testKey(choice!, "sk-right", { env: {} }), { ok: true, model: "deepseek-flash" });
    assert.equal(sim.requests.length, 1);
    const body = JSON.parse(sim.requests[0]!.body);
    assert.equal(body.model, "deepseek-flash");
    assert.equal(body.messages.length, 1);
    const wrong = await testKey(choice!, "sk-wrong-secret", { env: {} });
    assert.equal(wrong.ok, false);
    if (!wrong.ok) {
      assert.doesNotMatch(wrong.message, /sk-wrong-secret/);
      assert.match(wrong.message, new RegExp(`^${new URL(sim.url).host} rejected the key \\(401\\)`));
    }
  } finally {
    await s.cleanup();
    await sim.close();
  }
});
