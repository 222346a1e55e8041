import assert from "node:assert/strict";
import { join } from "node:path";
import { resolvePaths } from "../../src/config/paths.ts";
import { parseDotenv } from "../../src/config/dotenv.ts";
import {
  existingKeySource,
  modelChoices,
  needsSetup,
  storeKey,
  testKey,
  writeProjectConfig,
} from "../../src/control/setup.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";

async function scratch() {
  const home = await Deno.makeTempDir({ prefix: "reasonix-setup-home-" });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-setup-ws-" }));
  const paths = resolvePaths({ REASONIX_HOME: home });
  return {
    home,
    workspace,
    paths,
    cleanup: () => Promise.all([home, workspace].map((d) => Deno.remove(d, { recursive: true }))),
  };
}

Deno.test("needsSetup() is true without a key and false once one is in the env or <home>/.env", async () => {
  const s = await scratch();
  try {
    assert.equal(await needsSetup({ workspace: s.workspace, paths: s.paths, env: {} }), true);
    assert.equal(
      await needsSetup({ workspace: s.workspace, paths: s.paths, env: { DEEPSEEK_API_KEY: "sk-x" } }),
      false,
    );
    await storeKey(s.paths, "DEEPSEEK_API_KEY", "sk-stored");
    assert.equal(await needsSetup({ workspace: s.workspace, paths: s.paths, env: {} }), false);
    assert.equal(
      await existingKeySource("DEEPSEEK_API_KEY", { workspace: s.workspace, paths: s.paths, env: {} }),
      "dotenv",
    );
  } finally {
    await s.cleanup();
  }
});

Deno.test("modelChoices() offers the built-in DeepSeek models", async () => {
  const s = await scratch();
  try {
    const choices = await modelChoices({ workspace: s.workspace, paths: s.paths, env: {} });
    assert.deepEqual(choices.map((c) => [c.ref, c.model]), [["deepseek-flash", "deepseek-flash"], [
      "deepseek-pro",
      "deepseek-v4-pro",
    ]]);
  } finally {
    await s.cleanup();
  }
});

Deno.test("storeKey() replaces the key line, keeps other lines and makes the file private", async () => {
  const s = await scratch();
  try {
    await Deno.writeTextFile(
      s.paths.envFile,
      "# mine\nOTHER=1\nDEEPSEEK_API_KEY=old\nexport DEEPSEEK_API_KEY=older\n",
    );
    await storeKey(s.paths, "DEEPSEEK_API_KEY", "  sk-new  ");
    const text = await Deno.readTextFile(s.paths.envFile);
    assert.equal(text, "# mine\nOTHER=1\nDEEPSEEK_API_KEY=sk-new\n");
    assert.equal(parseDotenv(text).get("DEEPSEEK_API_KEY"), "sk-new");
    assert.equal((await Deno.stat(s.paths.envFile)).mode! & 0o777, 0o600);
    await assert.rejects(storeKey(s.paths, "DEEPSEEK_API_KEY", "has space"), /spaces or quotes/);
  } finally {
    await s.cleanup();
  }
});

Deno.test("writeProjectConfig() creates a file, completes one without default_model, leaves a full one alone", async () => {
  const s = await scratch();
  try {
    const created = await writeProjectConfig(s.workspace, "deepseek-pro");
    assert.equal(created.kind, "created");
    assert.match(
      await Deno.readTextFile(join(s.workspace, "reasonix.toml")),
      /^default_model = "deepseek-pro"$/m,
    );
    const user = "# my comment\n[tools]\nbash_timeout_seconds = 60 # keep\n";
    await Deno.writeTextFile(join(s.workspace, "reasonix.toml"), user);
    const added = await writeProjectConfig(s.workspace, "deepseek-flash");
    assert.deepEqual(added, {
      kind: "added",
      file: join(s.workspace, "reasonix.toml"),
      keys: ["default_model"],
    });
    const after = await Deno.readTextFile(join(s.workspace, "reasonix.toml"));
    assert.ok(
      after.includes(user.trimEnd().split("\n")[0]!) && after.includes("bash_timeout_seconds = 60 # keep"),
    );
    assert.match(after, /^default_model = "deepseek-flash"$/m);
    assert.equal((await writeProjectConfig(s.workspace, "deepseek-pro")).kind, "unchanged");
    assert.equal(await Deno.readTextFile(join(s.workspace, "reasonix.toml")), after);
  } finally {
    await s.cleanup();
  }
});

Deno.test("testKey() sends one tiny request; a wrong key fails without echoing it", async () => {
  const sim = await DeepSeekSim.start({ apiKey: "sk-right", script: [{ content: "ok" }] });
  const s = await scratch();
  try {
    await Deno.writeTextFile(
      s.paths.globalConfigFile,
      `[[providers]]\nname = "deepseek-flash"\nkind = "openai"\nbase_url = "${sim.url}"\nmodel = "deepseek-flash"\napi_key_env = "DEEPSEEK_API_KEY"\n`,
    );
    const [choice] = await modelChoices({ workspace: s.workspace, paths: s.paths, env: {} });
    assert.deepEqual(await testKey(choice!, "sk-right"), { ok: true, model: "deepseek-flash" });
    assert.equal(sim.requests.length, 1);
    const body = JSON.parse(sim.requests[0]!.body);
    assert.equal(body.model, "deepseek-flash");
    assert.equal(body.messages.length, 1);
    const wrong = await testKey(choice!, "sk-wrong-secret");
    assert.equal(wrong.ok, false);
    if (!wrong.ok) assert.doesNotMatch(wrong.message, /sk-wrong-secret/);
  } finally {
    await s.cleanup();
    await sim.close();
  }
});
