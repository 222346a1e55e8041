import assert from "node:assert/strict";
import { join } from "node:path";
import { cliEnv, MAIN_TS } from "../support/cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";

const KEY = "sk-wizard-secret-4242";

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-L", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return new TextDecoder().decode(out.stdout);
}

async function waitForScreen(socket: string, pattern: RegExp): Promise<string> {
  let screen = "";
  for (let i = 0; i < 600; i++) {
    screen = await tmux(socket, "capture-pane", "-p", "-t", "wizard");
    if (pattern.test(screen)) return screen;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`Screen never showed ${pattern}:\n${screen}`);
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

Deno.test("reasonix setup picks a model, stores the masked key, writes reasonix.toml and tests the key", async () => {
  const sim = await DeepSeekSim.start({ apiKey: KEY, script: [{ content: "ok" }] });
  const home = await Deno.makeTempDir({ prefix: "reasonix-wizard-home-" });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-wizard-ws-" }));
  const socket = `reasonix-setup-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeTextFile(
      join(home, "config.toml"),
      `[[providers]]\nname = "deepseek-flash"\nkind = "openai"\nbase_url = "${sim.url}"\nmodel = "deepseek-flash"\napi_key_env = "DEEPSEEK_API_KEY"\n`,
    );
    const env = Object.entries(cliEnv(home, { LANG: "en_US.UTF-8" })).map(([k, v]) =>
      `${k}=${shellQuote(v)}`
    );
    const command = `env -i ${env.join(" ")} ${shellQuote(Deno.execPath())} run --no-prompt -A ${
      shellQuote(MAIN_TS)
    } setup ${shellQuote(workspace)}; echo WIZARD-EXIT=$?; sleep 30`;
    await tmux(socket, "new-session", "-d", "-s", "wizard", "-x", "100", "-y", "30", command);
    await waitForScreen(socket, /Pick a model/);
    await tmux(socket, "send-keys", "-t", "wizard", "Enter");
    await waitForScreen(socket, /Paste your DEEPSEEK_API_KEY/);
    await tmux(socket, "send-keys", "-t", "wizard", "-l", KEY);
    await tmux(socket, "send-keys", "-t", "wizard", "Enter");
    const screen = await waitForScreen(socket, /WIZARD-EXIT=\d+/);
    assert.match(screen, /WIZARD-EXIT=0/, screen);
    assert.match(screen, /The key works/);
    assert.match(screen, /Done\. Start with `reasonix`/);
    assert.ok(!screen.includes(KEY), "the key must never appear on screen");
    const history = await tmux(socket, "capture-pane", "-p", "-S", "-200", "-t", "wizard");
    assert.ok(!history.includes(KEY), "the key must never appear in the scrollback");
    assert.match(await Deno.readTextFile(join(home, ".env")), new RegExp(`^DEEPSEEK_API_KEY=${KEY}$`, "m"));
    assert.match(
      await Deno.readTextFile(join(workspace, "reasonix.toml")),
      /^default_model = "deepseek-flash"$/m,
    );
    assert.equal(sim.requests.length, 1);
  } finally {
    await tmux(socket, "kill-server");
    await sim.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(workspace, { recursive: true });
  }
});
