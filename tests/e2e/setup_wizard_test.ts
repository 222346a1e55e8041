import assert from "node:assert/strict";
import { join } from "node:path";
import { cliEnv, MAIN_TS, runCli } from "../support/cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { shellQuote, TmuxPane } from "../support/tmux.ts";

const KEY = "sk-wizard-secret-4242";

interface Wizard {
  pane: TmuxPane;
  home: string;
  workspace: string;
  /** The user's config.toml as it was before the wizard ran. */
  userToml: string;
}

interface WizardStart {
  /** `setup`'s options before the workspace path (default none). */
  args?: string[];
  env?: Record<string, string>;
  /** `reasonix` itself, whose first run without a key starts the wizard (default: `reasonix setup`). */
  firstRun?: boolean;
  /** The user's `default_model` before the wizard (default `deepseek-pro`). */
  defaultModel?: string | null;
}

/** The wizard in an 80×24 tmux pane, as a new user: no key, a config whose provider is at `baseUrl`. */
async function startWizard(baseUrl: string, start: WizardStart = {}): Promise<Wizard> {
  const home = await Deno.makeTempDir({ prefix: "reasonix-wizard-home-" });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-wizard-ws-" }));
  const defaultModel = start.defaultModel === undefined ? "deepseek-pro" : start.defaultModel;
  const userToml = `# my own settings\n` +
    (defaultModel === null ? "" : `default_model = "${defaultModel}" # for now\n\n`) +
    `[[providers]]\nname = "deepseek-flash"\nkind = "openai"\n` +
    `base_url = "${baseUrl}"\nmodel = "deepseek-flash"\napi_key_env = "DEEPSEEK_API_KEY"\n`;
  await Deno.writeTextFile(join(home, "config.toml"), userToml);
  const env = Object.entries(cliEnv(home, { LANG: "en_US.UTF-8", ...start.env })).map(([k, v]) =>
    `${k}=${shellQuote(v)}`
  );
  const cli = start.firstRun ? ["--dir", workspace] : ["setup", ...start.args ?? [], workspace];
  // Deno's own start-up notes go to a file: they are not the wizard's, and a shipped binary has none.
  const command = `env -i ${env.join(" ")} ${shellQuote(Deno.execPath())} run --no-prompt -A ${
    shellQuote(MAIN_TS)
  } ${cli.map(shellQuote).join(" ")} 2>>${
    shellQuote(join(home, "deno-stderr.log"))
  }; echo WIZARD-EXIT=$?; sleep 60`;
  const pane = new TmuxPane();
  await pane.start(command, 80, 24);
  return { pane, home, workspace, userToml };
}

async function pickFirstModelAndPaste(wizard: Wizard, key: string): Promise<void> {
  await wizard.pane.waitFor(/Pick a model/);
  await wizard.pane.keys("Enter");
  await wizard.pane.waitFor(/Paste your DEEPSEEK_API_KEY/);
  await wizard.pane.type(key);
  await wizard.pane.keys("Enter");
}

async function finished(wizard: Wizard): Promise<string> {
  const screen = await wizard.pane.waitFor(/WIZARD-EXIT=\d+/);
  const history = await wizard.pane.run("capture-pane", "-p", "-S", "-200", "-t", "main");
  assert.ok(!history.includes(KEY), "the key must never appear on screen or in the scrollback");
  return screen;
}

/** The wizard exited 0 with its whole flow on one screen; returns the screen. */
async function succeeded(wizard: Wizard): Promise<string> {
  const screen = await finished(wizard);
  assert.match(screen, /WIZARD-EXIT=0/, screen);
  assertOneScreen(screen);
  return screen;
}

/** The whole question flow stayed on one 80×24 screen: its first line has not scrolled away. */
function assertOneScreen(screen: string): void {
  assert.match(screen.split("\n")[0]!, /^┌ {2}Reasonix setup/, `scrolled past one screen:\n${screen}`);
}

/** The pasted key is in the home's .env, where the wizard keeps it. */
async function assertKeyStored(wizard: Wizard): Promise<void> {
  assert.match(
    await Deno.readTextFile(join(wizard.home, ".env")),
    new RegExp(`^DEEPSEEK_API_KEY=${KEY}$`, "m"),
  );
}

async function cleanup(wizard: Wizard, ...sims: (DeepSeekSim | undefined)[]): Promise<void> {
  await wizard.pane.kill();
  for (const sim of sims) await sim?.close();
  await Deno.remove(wizard.home, { recursive: true });
  await Deno.remove(wizard.workspace, { recursive: true });
}

/** A simulator's port, closed again: nothing listens there until a simulator is started on it. */
async function deadPort(): Promise<number> {
  const sim = await DeepSeekSim.start();
  await sim.close();
  return Number(new URL(sim.url).port);
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

Deno.test("reasonix setup tests the masked key, stores it and sets default_model in the user's config only", async () => {
  const sim = await DeepSeekSim.start({ apiKey: KEY, script: [{ content: "ok" }] });
  const wizard = await startWizard(sim.url);
  try {
    await pickFirstModelAndPaste(wizard, KEY);
    const screen = await succeeded(wizard);
    assert.match(screen, /The key works/);
    assert.match(screen, /Done\. Start with `reasonix`/);
    await assertKeyStored(wizard);
    assert.equal(
      await Deno.readTextFile(join(wizard.home, "config.toml")),
      wizard.userToml.replace('"deepseek-pro"', '"deepseek-flash"'),
      "only the value of default_model changes",
    );
    assert.equal(await readOptional(join(wizard.workspace, "reasonix.toml")), undefined);
    assert.equal(sim.requests.length, 1);
  } finally {
    await cleanup(wizard, sim);
  }
});

Deno.test("reasonix setup offline: the failure is named, Save anyway keeps the key and a later run works", async () => {
  const port = await deadPort();
  const wizard = await startWizard(`http://127.0.0.1:${port}`);
  let sim: DeepSeekSim | undefined;
  try {
    await pickFirstModelAndPaste(wizard, KEY);
    const failed = await wizard.pane.waitFor(/What now\?[\s\S]*Cancel/);
    assert.match(failed, new RegExp(`Connection to 127\\.0\\.0\\.1:${port} refused`));
    assert.match(failed, /Save anyway[\s\S]*Retry[\s\S]*custom OpenAI-compatible provider[\s\S]*Cancel/);
    await wizard.pane.keys("Enter");
    const screen = await succeeded(wizard);
    assert.match(screen, /Saved, untested/);
    await assertKeyStored(wizard);
    assert.equal(
      await Deno.readTextFile(join(wizard.home, "config.toml")),
      wizard.userToml.replace('"deepseek-pro"', '"deepseek-flash"'),
    );
    sim = await DeepSeekSim.start({ port, apiKey: KEY, script: [{ content: "ok from the simulator" }] });
    const run = await runCli(["run", "say ok"], { home: wizard.home, cwd: wizard.workspace });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /ok from the simulator/);
  } finally {
    await cleanup(wizard, sim);
  }
});

Deno.test("reasonix setup offline: Retry sends the same key again once the server is up", async () => {
  const port = await deadPort();
  const wizard = await startWizard(`http://127.0.0.1:${port}`);
  let sim: DeepSeekSim | undefined;
  try {
    await pickFirstModelAndPaste(wizard, KEY);
    await wizard.pane.waitFor(/What now\?[\s\S]*Cancel/);
    sim = await DeepSeekSim.start({ port, apiKey: KEY, script: [{ content: "ok" }] });
    await wizard.pane.keys("Down", "Enter");
    const screen = await succeeded(wizard);
    assert.match(screen, /The key works/);
    assert.equal(sim.requests.length, 1);
    await assertKeyStored(wizard);
  } finally {
    await cleanup(wizard, sim);
  }
});

Deno.test("reasonix setup after a failed test: a custom OpenAI-compatible provider is added to the user's config", async () => {
  const customKey = "sk-custom-secret-77";
  const sim = await DeepSeekSim.start({
    apiKey: customKey,
    script: [{ content: "ok" }, { content: "ok from sim-my-model" }],
  });
  const wizard = await startWizard(`http://127.0.0.1:${await deadPort()}`);
  try {
    await pickFirstModelAndPaste(wizard, KEY);
    await wizard.pane.waitFor(/What now\?[\s\S]*Cancel/);
    await wizard.pane.keys("Down", "Down", "Enter");
    await wizard.pane.waitFor(/Base URL of the OpenAI-compatible API/);
    await wizard.pane.type(`${sim.url}/v1`);
    await wizard.pane.keys("Enter");
    await wizard.pane.waitFor(/Model name/);
    await wizard.pane.type("sim-my-model");
    await wizard.pane.keys("Enter");
    await wizard.pane.waitFor(/Paste its API key, saved as CUSTOM_API_KEY/);
    await wizard.pane.type(customKey);
    await wizard.pane.keys("Enter");
    const screen = await succeeded(wizard);
    assert.match(screen, /The key works \(sim-my-model answered\)/);
    const history = await wizard.pane.run("capture-pane", "-p", "-S", "-200", "-t", "main");
    assert.match(history, /Connection to 127\.0\.0\.1:\d+ refused/, "the first page stays in the scrollback");
    assert.ok(!screen.includes(customKey));
    const config = await Deno.readTextFile(join(wizard.home, "config.toml"));
    assert.ok(config.startsWith(wizard.userToml.replace('"deepseek-pro"', '"custom"')), config);
    assert.ok(
      config.includes(
        `[[providers]]\nname = "custom"\nkind = "openai"\nbase_url = "${sim.url}/v1"\nmodel = "sim-my-model"\n` +
          `api_key_env = "CUSTOM_API_KEY"\n`,
      ),
      config,
    );
    const env = await Deno.readTextFile(join(wizard.home, ".env"));
    assert.equal(env, `CUSTOM_API_KEY=${customKey}\n`, "only the key that was used is saved");
    const run = await runCli(["run", "say ok"], { home: wizard.home, cwd: wizard.workspace });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /ok from sim-my-model/);
    assert.equal(sim.requests.at(-1)!.path, "/v1/chat/completions");
    assert.equal(JSON.parse(sim.requests.at(-1)!.body).model, "sim-my-model");
  } finally {
    await cleanup(wizard, sim);
  }
});

Deno.test("reasonix setup --project sets default_model in the workspace's reasonix.toml, never the key", async () => {
  const sim = await DeepSeekSim.start({ apiKey: KEY, script: [{ content: "ok" }] });
  const wizard = await startWizard(sim.url, { args: ["--project"] });
  try {
    await pickFirstModelAndPaste(wizard, KEY);
    await succeeded(wizard);
    const project = await Deno.readTextFile(join(wizard.workspace, "reasonix.toml"));
    assert.match(project, /^default_model = "deepseek-flash"$/m);
    assert.ok(!project.includes(KEY));
    assert.equal(await Deno.readTextFile(join(wizard.home, "config.toml")), wizard.userToml);
    await assertKeyStored(wizard);
  } finally {
    await cleanup(wizard, sim);
  }
});

Deno.test("reasonix setup behind a proxy that is down says it is the proxy, and Cancel writes nothing", async () => {
  const sim = await DeepSeekSim.start({ apiKey: KEY, script: [{ content: "ok" }] });
  const proxyPort = await deadPort();
  const wizard = await startWizard(sim.url, { env: { HTTP_PROXY: `http://127.0.0.1:${proxyPort}` } });
  try {
    await pickFirstModelAndPaste(wizard, KEY);
    const failed = await wizard.pane.waitFor(/What now\?[\s\S]*Cancel/);
    const host = new URL(sim.url).host.replaceAll(".", "\\.");
    assert.match(
      failed,
      new RegExp(`Cannot reach ${host}: its proxy 127\\.0\\.0\\.1:${proxyPort} \\(HTTP_PROXY\\) refused`),
    );
    await wizard.pane.keys("Up", "Enter");
    const screen = await finished(wizard);
    assert.match(screen, /Setup cancelled; nothing was written/);
    assert.match(screen, /WIZARD-EXIT=1/);
    assert.equal(sim.requests.length, 0);
    assert.equal(await readOptional(join(wizard.home, ".env")), undefined);
    assert.equal(await Deno.readTextFile(join(wizard.home, "config.toml")), wizard.userToml);
  } finally {
    await cleanup(wizard, sim);
  }
});

Deno.test("reasonix without a key runs the wizard inside its session; the default model needs no config write", async () => {
  const sim = await DeepSeekSim.start({ apiKey: KEY, script: [{ content: "ok" }] });
  // A loopback provider needs no key unless its variable is set, even empty: the wizard must then run.
  const wizard = await startWizard(sim.url, {
    firstRun: true,
    defaultModel: null,
    env: { DEEPSEEK_API_KEY: "" },
  });
  try {
    await pickFirstModelAndPaste(wizard, KEY);
    const screen = await wizard.pane.waitFor(/deepseek-flash is already the default model[\s\S]*Done/);
    assert.match(screen, /The key works/);
    assert.ok(!screen.includes(KEY));
    await assertKeyStored(wizard);
    assert.equal(await Deno.readTextFile(join(wizard.home, "config.toml")), wizard.userToml);
    assert.equal(await readOptional(join(wizard.workspace, "reasonix.toml")), undefined);
  } finally {
    await cleanup(wizard, sim);
  }
});

Deno.test("reasonix setup: a custom local server picked from the list may take no key, and run then works", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ content: "ok" }, { content: "ok from the local server" }],
  });
  const wizard = await startWizard(`http://127.0.0.1:${await deadPort()}`);
  try {
    await wizard.pane.waitFor(/Pick a model[\s\S]*Custom OpenAI-compatible provider/);
    await wizard.pane.keys("Up", "Enter");
    await wizard.pane.waitFor(/Base URL of the OpenAI-compatible API/);
    await wizard.pane.type(sim.url);
    await wizard.pane.keys("Enter");
    await wizard.pane.waitFor(/Model name/);
    await wizard.pane.type("sim-local");
    await wizard.pane.keys("Enter");
    await wizard.pane.waitFor(/Paste its API key, saved as CUSTOM_API_KEY \(hidden; Enter alone: no key\)/);
    await wizard.pane.keys("Enter");
    const screen = await succeeded(wizard);
    assert.match(screen, /The key works \(sim-local answered\)/);
    assert.equal(sim.requests[0]!.headers["authorization"], undefined);
    assert.equal(await readOptional(join(wizard.home, ".env")), undefined, "no key, nothing stored");
    const config = await Deno.readTextFile(join(wizard.home, "config.toml"));
    assert.ok(config.startsWith(wizard.userToml.replace('"deepseek-pro"', '"custom"')), config);
    assert.match(config, /\[\[providers\]\]\nname = "custom"\n/);
    const run = await runCli(["run", "say ok"], { home: wizard.home, cwd: wizard.workspace });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /ok from the local server/);
  } finally {
    await cleanup(wizard, sim);
  }
});
