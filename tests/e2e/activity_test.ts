import assert from "node:assert/strict";
import { join } from "node:path";
import { cliEnv, MAIN_TS, makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { shellQuote, TmuxPane } from "../support/tmux.ts";
import { withTui } from "../support/tui.ts";

const SLOW_THOUGHT = {
  reasoning: "Let me think about this carefully. ".repeat(12),
  content: "Thought it over.",
  tokensPerSecond: 25,
};

Deno.test("tui activity: a spinner line tells what the turn is doing, for how long, with tokens so far", async () => {
  await withTui([SLOW_THOUGHT], async ({ pane }) => {
    await pane.type("think hard");
    await pane.keys("Enter");
    const screen = await pane.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] thinking · [1-9]\d*s · ↓ \d+ tokens/);
    assert.match(screen, /working… Ctrl\+C cancels/);
    const done = await pane.waitFor(/Thought it over\./);
    await pane.waitFor((text) => !/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /.test(text));
    assert.ok(done.includes("Thought it over."));
  });
});

Deno.test("tui activity: a running tool is named in the spinner line", async () => {
  const call = { name: "bash", arguments: JSON.stringify({ command: "sleep 3" }) };
  await withTui([{ reasoning: "Run it.", toolCalls: [call] }, { content: "Slept." }], async ({ pane }) => {
    await pane.type("sleep a bit");
    await pane.keys("Enter");
    await pane.waitFor(/running bash · \d+s/);
    await pane.waitFor(/Slept\./);
  }, { args: ["--yolo"] });
});

Deno.test("run progress: the spinner goes to a terminal stderr only; stdout keeps just the output", async () => {
  const sim = await DeepSeekSim.start({ script: [SLOW_THOUGHT, SLOW_THOUGHT] });
  const home = await makeHome({ simUrl: sim.url });
  const workspace = await makeWorkspace({ "README.md": "fixture\n" });
  const pane = new TmuxPane();
  try {
    const env = Object.entries(cliEnv(home, { LANG: "en_US.UTF-8", TERM: "xterm-256color" }))
      .map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
    const reasonix = `env -i ${env} ${shellQuote(Deno.execPath())} run --no-prompt -A ${
      shellQuote(MAIN_TS)
    } run`;
    const command = `cd ${shellQuote(workspace)} && ${reasonix} 'think hard' > out.txt; ` +
      `${reasonix} 'think again' > out2.txt 2> err2.txt; echo RUNS-DONE; sleep 30`;
    await pane.start(command, 100, 20);
    await pane.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (thinking|waiting for the model) · \d+s/);
    await pane.waitFor(/RUNS-DONE/);
    const out = await Deno.readTextFile(join(workspace, "out.txt"));
    assert.doesNotMatch(out, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/, "no spinner in stdout");
    assert.ok(!out.includes("\x1b"), "no terminal controls in stdout");
    assert.match(out, /Thought it over\./);
    const err = await Deno.readTextFile(join(workspace, "err2.txt"));
    assert.doesNotMatch(err, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/, "no spinner when stderr is not a terminal");
  } finally {
    await pane.kill();
    await sim.close();
    await removeAll(home, workspace);
  }
});
