import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("a project provider gets no global key until the user approves it with trust-key", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "hello from the project provider" }] });
  const home = await makeHome({ simUrl: sim.url, apiKey: "sk-user-secret" });
  const otherHost = sim.url.replace("127.0.0.1", "localhost");
  const ws = await makeWorkspace({
    "reasonix.toml": [
      `default_model = "proj"`,
      `[[providers]]`,
      `name = "proj"`,
      `kind = "openai"`,
      `base_url = "${otherHost}"`,
      `model = "sim-model"`,
      `api_key_env = "DEEPSEEK_API_KEY"`,
      ``,
    ].join("\n"),
  });
  try {
    const refused = await runCli(["run", "--output-format", "json", "hi"], { home, cwd: ws });
    assert.equal(refused.code, 1);
    const result = JSON.parse(refused.stdout);
    assert.equal(result.error.code, "config.untrusted_provider_key");
    assert.match(result.result, /reasonix\.toml/);
    assert.match(result.result, /DEEPSEEK_API_KEY/);
    assert.doesNotMatch(refused.stdout + refused.stderr, /sk-user-secret/);
    assert.equal(sim.requests.length, 0, "nothing was sent");

    const trust = await runCli(["trust-key", "proj"], { home, cwd: ws });
    assert.equal(trust.code, 0, trust.stderr);
    const allowed = await runCli(["run", "--output-format", "json", "hi"], { home, cwd: ws });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(JSON.parse(allowed.stdout).result, "hello from the project provider");
    assert.equal(sim.requests[0]!.headers["authorization"], "Bearer sk-user-secret");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("config set edits one key in place and config get reads the merged value", async () => {
  const home = await Deno.makeTempDir();
  const original =
    `# my settings\n[tools]\n# keep this comment\nbash_timeout_seconds = 120 # inline\nunknown_key = 1\n`;
  const ws = await makeWorkspace({ "reasonix.toml": original });
  try {
    const set = await runCli(["config", "set", "tools.bash_timeout_seconds", "30"], { home, cwd: ws });
    assert.equal(set.code, 0, set.stderr);
    assert.equal(
      await Deno.readTextFile(join(ws, "reasonix.toml")),
      original.replace("= 120", "= 30"),
    );
    const get = await runCli(["config", "get", "tools.bash_timeout_seconds"], { home, cwd: ws });
    assert.equal(get.stdout.trim(), "30");
    const bad = await runCli(["config", "set", "tools.bash_timeout_seconds", "lots"], { home, cwd: ws });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /bash_timeout_seconds/);
    assert.equal(await Deno.readTextFile(join(ws, "reasonix.toml")), original.replace("= 120", "= 30"));
  } finally {
    await removeAll(home, ws);
  }
});
