import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeWorkspace, removeAll, runCli } from "../support/cli.ts";

/** The config.toml the Go Reasonix 1.38.11 wrote on its first run (provenance in its header). */
const GO_CONFIG = resolve(import.meta.dirname!, "../fixtures/go_1.38.11_first_run_config.toml");

/** The Go keys that file sets and Reasonix accepts without using them yet, in file order. */
const NOT_USED_YET = [
  "desktop",
  "telemetry",
  "notifications",
  "network.proxy_mode",
  "network.proxy",
  "environment",
  "agent.temperature",
  ...[
    "balance_url",
    "prices",
    "billing_currency",
    "thinking",
    "vision_models",
    "web_search",
    "supported_efforts",
    "default_effort",
  ].map((key) => `providers[0].${key}`),
  ...["balance_url", "billing_currency", "thinking", "web_search", "supported_efforts", "default_effort"]
    .map((key) => `providers[1].${key}`),
  "tools.background_jobs",
  "tools.shell",
  "lsp",
  "browser",
  "statusline",
  "bot",
];

/** A Reasonix home holding the Go-written file as its config.toml, its DeepSeek URL moved to the simulator. */
async function goHome(simUrl: string, extra = ""): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "reasonix-go-home-" });
  const text = await Deno.readTextFile(GO_CONFIG);
  await Deno.writeTextFile(
    join(home, "config.toml"),
    text.replaceAll("https://api.deepseek.com", simUrl) + extra,
  );
  await Deno.writeTextFile(join(home, ".env"), "DEEPSEEK_API_KEY=sk-sim-test\n");
  return home;
}

function configLines(stderr: string, file: string): string[] {
  return stderr.split("\n").filter((line) => line.includes(file));
}

Deno.test("a config.toml written by the Go Reasonix runs without a warning; doctor and config path list what is not used yet", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "one" }, { content: "two" }] });
  const home = await goHome(sim.url);
  const file = join(home, "config.toml");
  const ws = await makeWorkspace({});
  try {
    for (const answer of ["one", "two"]) {
      const run = await runCli(["run", "--output-format", "json", "hi"], { home, cwd: ws });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout).result, answer);
      assert.deepEqual(configLines(run.stderr, file), [], run.stderr);
      assert.doesNotMatch(run.stderr, /not supported|unknown key/);
    }
    assert.equal(sim.requests[0]!.json.model, "deepseek-v4-flash", "the Go file's provider is used");

    const path = await runCli(["config", "path"], { home, cwd: ws });
    assert.equal(path.code, 0, path.stderr);
    const listed = path.stdout.split("\n").filter((line) => line.startsWith(`  ${file}:`));
    assert.deepEqual(listed.map((line) => line.split(/\s{2,}/)[2]), NOT_USED_YET);
    assert.match(path.stdout, new RegExp(`^global: +${file}$`, "m"));
    assert.match(path.stdout, /^Accepted, not used yet \(27\):$/m);
    assert.doesNotMatch(path.stdout, /Unknown/);

    const doctor = await runCli(["doctor", "--json"], { home, cwd: ws });
    assert.equal(doctor.code, 0, doctor.stderr);
    const check = JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === "config keys");
    assert.equal(check.status, "ok");
    assert.match(
      check.detail,
      /^accepted, not used yet: desktop, telemetry, .*providers\[\]\.thinking, .* bot /,
    );
    assert.equal(check.list.length, NOT_USED_YET.length);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("an unknown key warns once per content of its file, not on every run", async () => {
  const sim = await DeepSeekSim.start({ script: Array.from({ length: 4 }, () => ({ content: "ok" })) });
  const home = await goHome(sim.url, "\n[mystery]\nanswer = 42\n");
  const file = join(home, "config.toml");
  const ws = await makeWorkspace({});
  const warned = async () => {
    const run = await runCli(["run", "hi"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    return configLines(run.stderr, file);
  };
  try {
    const line = (await Deno.readTextFile(file)).split("\n").indexOf("[mystery]") + 1;
    assert.deepEqual(await warned(), [`warning: ${file}:${line}:2: unknown key "mystery"`]);
    assert.deepEqual(await warned(), []);
    await Deno.writeTextFile(file, "\n# edited\n", { append: true });
    assert.deepEqual(await warned(), [`warning: ${file}:${line}:2: unknown key "mystery"`]);
    assert.deepEqual(await warned(), []);
    const doctor = await runCli(["doctor"], { home, cwd: ws });
    assert.match(doctor.stdout, /\[warn\] config keys .*1 unknown/);
    const path = await runCli(["config", "path"], { home, cwd: ws });
    assert.match(
      path.stdout,
      new RegExp(`^Unknown \\(1\\):\\n  ${file}:${line}:2  unknown key "mystery"$`, "m"),
    );
    assert.equal(
      await Deno.readTextFile(file).then((t) => t.endsWith("# edited\n")),
      true,
      "never rewritten",
    );
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

async function denoDir(): Promise<string> {
  if (Deno.env.get("DENO_DIR")) return Deno.env.get("DENO_DIR")!;
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output();
  return JSON.parse(new TextDecoder().decode(info.stdout)).denoDir;
}

Deno.test("config path names the legacy global file when it is the one in use", async () => {
  const userHome = await makeWorkspace({});
  const ws = await makeWorkspace({});
  const env = { HOME: userHome, REASONIX_HOME: "", DENO_DIR: await denoDir() };
  const configPath = async () => {
    const run = await runCli(["config", "path"], { home: "", cwd: ws, env });
    assert.equal(run.code, 0, run.stderr);
    return run.stdout;
  };
  const global = join(userHome, ".reasonix", "config.toml");
  await Deno.mkdir(join(userHome, ".reasonix"));
  try {
    for (
      const legacy of [
        join(userHome, ".config/reasonix/config.toml"),
        join(userHome, ".reasonix/reasonix.toml"),
      ]
    ) {
      await Deno.mkdir(join(legacy, ".."), { recursive: true });
      await Deno.writeTextFile(legacy, `[lsp]\nenabled = true\n`);
      const alone = await configPath();
      assert.match(alone, new RegExp(`^legacy:  ${legacy}  \\(the global file in use\\)$`, "m"));
      assert.match(alone, new RegExp(`^global:  ${global}  \\(not found\\)$`, "m"));
      assert.match(alone, new RegExp(`^  ${legacy}:1:2  lsp$`, "m"));
      await Deno.writeTextFile(global, "");
      const both = await configPath();
      assert.match(both, new RegExp(`^legacy:  ${legacy}  \\(also read, below the global file\\)$`, "m"));
      assert.match(both, new RegExp(`^global:  ${global}$`, "m"));
      await Deno.remove(global);
      await Deno.remove(legacy);
    }
    assert.doesNotMatch(await configPath(), /legacy/);
  } finally {
    await removeAll(userHome, ws);
  }
});
