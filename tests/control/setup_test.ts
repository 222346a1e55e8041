import assert from "node:assert/strict";
import { parseDotenv } from "../../src/config/dotenv.ts";
import { existingKeySource, modelChoices, needsSetup, storeKey } from "../../src/control/setup.ts";
import { scratch } from "./_setup_scratch.ts";

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
