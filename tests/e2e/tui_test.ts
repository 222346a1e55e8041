import assert from "node:assert/strict";
import { join } from "node:path";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { withTui } from "../support/tui.ts";
import { InputHistory } from "../../src/session/input_history.ts";
import { resolvePaths } from "../../src/config/paths.ts";

Deno.test("tui: a typed task streams a Markdown answer and the status line shows cache hit and cost", async () => {
  await withTui(
    [{ content: "## Plan\n\nThe answer is **forty-two** today.", chunkSize: 3 }],
    async ({ pane, sim }) => {
      await pane.type("what is the answer");
      await pane.keys("Enter");
      const screen = await pane.waitFor(/The answer is forty-two today\./);
      assert.ok(!screen.includes("**"), screen);
      assert.match(screen, /› what is the answer/);
      const status = await pane.waitFor(/cache \d+% \(session \d+%\) · cost \d/);
      assert.match(status, /deepseek-flash · ask/);
      assert.equal(sim.requests.length, 1);
      assert.equal(sim.requests[0]!.json.messages.at(-1).content.includes("what is the answer"), true);
    },
  );
});

Deno.test("tui: a write_file call in ask mode shows an approval card; pressing 1 allows it and the file is written", async () => {
  const args = JSON.stringify({ path: "notes.txt", content: "hello from the card\n" });
  await withTui(
    [{ toolCalls: [{ name: "write_file", arguments: args }] }, { content: "Wrote the file." }],
    async ({ pane, workspace }) => {
      await pane.type("write notes");
      await pane.keys("Enter");
      const card = await pane.waitFor(/Allow write_file\?/);
      assert.match(card, /1 Allow once/);
      assert.match(card, /hello from the card/, "the card previews the diff");
      await pane.type("1");
      const after = await pane.waitFor(/Wrote the file\./);
      assert.match(after, /› Type a task/, "the digit answered the card and was not typed into the input");
      assert.equal(await Deno.readTextFile(join(workspace, "notes.txt")), "hello from the card\n");
    },
  );
});

Deno.test("tui: Enter on the card confirms the selected choice (→ moves to the next one)", async () => {
  const args = JSON.stringify({ path: "denied.txt", content: "nope\n" });
  await withTui(
    [{ toolCalls: [{ name: "write_file", arguments: args }] }, { content: "Understood, not written." }],
    async ({ pane, workspace }) => {
      await pane.type("write it");
      await pane.keys("Enter");
      await pane.waitFor(/›1 Allow once/);
      for (const choice of ["›2 Allow for this session", "›3 Always allow", "›4 Deny"]) {
        await pane.keys("Right");
        await pane.waitFor((screen) => screen.includes(choice));
      }
      await pane.keys("Enter");
      await pane.waitFor(/Understood, not written\./);
      await assert.rejects(Deno.stat(join(workspace, "denied.txt")), Deno.errors.NotFound);
    },
  );
});

Deno.test("tui: Chinese typed in the input and streamed in the answer renders", async () => {
  await withTui([{ content: "你好！这是中文回答，宽字符也对齐。", chunkSize: 2 }], async ({ pane, sim }) => {
    await pane.type("请用中文回答");
    await pane.waitFor(/› 请用中文回答/);
    await pane.keys("Enter");
    await pane.waitFor(/你好！这是中文回答，宽字符也对齐。/);
    assert.match(JSON.stringify(sim.requests[0]!.json.messages.at(-1)), /请用中文回答/);
  });
});

Deno.test("tui: Ctrl+C during a stream cancels the turn, the next turn works, a second Ctrl+C quits", async () => {
  await withTui(
    [{ content: "never shown", fault: { kind: "hang" }, keepAlive: 1 }, { content: "Second turn fine." }],
    async ({ pane, sim }) => {
      await pane.type("slow task");
      await pane.keys("Enter");
      await pane.waitFor(/working… Ctrl\+C cancels/);
      // The hanging reply must be the one taken: a Ctrl+C before the request leaves it for the next turn.
      const deadline = Date.now() + 20_000;
      while (sim.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      await pane.keys("C-c");
      await pane.waitFor((screen) =>
        !screen.includes("working…") && /Press Ctrl\+C again to quit/.test(screen)
      );
      await pane.type("again");
      await pane.keys("Enter");
      await pane.waitFor(/Second turn fine\./);
      await pane.keys("C-c");
      await pane.keys("C-c");
      await pane.waitFor(/TUI-EXIT=0/);
    },
  );
});

Deno.test("tui: resizing the window re-renders the input box at the new width", async () => {
  await withTui([], async ({ pane }) => {
    const border = (screen: string) => screen.split("\n").find((line) => line.startsWith("┌"))?.length ?? 0;
    assert.equal(border(await pane.screen()), 100);
    await pane.run("resize-window", "-t", "main", "-x", "60", "-y", "30");
    await pane.waitFor((screen) => border(screen) === 60);
    await pane.type("still typing");
    await pane.waitFor(/› still typing/);
  });
});

Deno.test("reasonix with stdout piped runs one turn per stdin line in plain text", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ content: "First answer." }, { content: "Second answer." }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const workspace = await makeWorkspace({});
  try {
    const result = await runCli([], { home, cwd: workspace, stdin: "first question\n\nsecond question\n" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /First answer\.[\s\S]*Second answer\./);
    assert.equal(sim.requests.length, 2);
    assert.match(JSON.stringify(sim.requests[1]!.json.messages), /first question[\s\S]*second question/);
  } finally {
    await sim.close();
    await removeAll(home, workspace);
  }
});

Deno.test("reasonix -c continues the latest session of the workspace", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ content: "Noted." }, { content: "You said remember 31." }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const workspace = await makeWorkspace({});
  try {
    const first = await runCli([], { home, cwd: workspace, stdin: "remember 31\n" });
    assert.equal(first.code, 0, first.stderr);
    const second = await runCli(["-c"], { home, cwd: workspace, stdin: "what did I say\n" });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /You said remember 31\./);
    assert.match(
      JSON.stringify(sim.requests[1]!.json.messages),
      /remember 31[\s\S]*Noted\.[\s\S]*what did I say/,
    );
  } finally {
    await sim.close();
    await removeAll(home, workspace);
  }
});

Deno.test("tui: Esc stops the running turn without arming quit", async () => {
  await withTui([{ content: "never shown", fault: { kind: "hang" } }], async ({ pane }) => {
    await pane.type("slow task");
    await pane.keys("Enter");
    await pane.waitFor(/working… Ctrl\+C cancels/);
    await pane.keys("Escape");
    const screen = await pane.waitFor((text) => !text.includes("working…") && /Interrupted/.test(text));
    assert.ok(!screen.includes("Press Ctrl+C again"), screen);
  });
});

Deno.test("tui: Ctrl+J starts a new line and Enter sends both lines as one turn", async () => {
  await withTui([{ content: "Got two lines." }], async ({ pane, sim }) => {
    await pane.type("line one");
    // Seen first, so the Ctrl+J is not in the first chunk, where a typed-ahead "\n" means Enter.
    await pane.waitFor(/› line one/);
    await pane.keys("C-j");
    await pane.type("第二行");
    await pane.waitFor(/› line one\s*│\s*\n│\s+第二行/);
    await pane.keys("Enter");
    await pane.waitFor(/Got two lines\./);
    assert.match(JSON.stringify(sim.requests[0]!.json.messages.at(-1)), /line one\\n第二行/);
  });
});

Deno.test("tui: slash commands are answered locally; an unknown one gets the nearest names and never reaches the model", async () => {
  await withTui([{ content: "unused" }], async ({ pane, sim }) => {
    await pane.type("/cots");
    await pane.keys("Enter");
    await pane.waitFor(/Unknown command \/cots\. Did you mean [^?]*\/cost/);
    await pane.type("/help mode");
    await pane.keys("Enter");
    await pane.waitFor(/\/permissions \[ask\|auto\|yolo\|plan\]\n.*permission mode/);
    await pane.type("/mode auto");
    await pane.keys("Enter");
    await pane.waitFor(/deepseek-flash · auto/);
    assert.equal(sim.requests.length, 0, "no slash command was sent to the model");
    await pane.type("/quit");
    await pane.keys("Enter");
    await pane.waitFor(/TUI-EXIT=0/);
  });
});

Deno.test("tui: Up recalls earlier inputs of this workspace, Down gives the draft back; history persists", async () => {
  await withTui(
    [{ content: "Did the first." }, { content: "Did it again." }],
    async ({ pane, sim, home, workspace }) => {
      await pane.type("first task");
      await pane.keys("Enter");
      await pane.waitFor(/Did the first\./);
      // The turn is over only once its usage receipt is shown; keys typed before that may be dropped.
      await pane.waitFor(/% cached\)/);
      await pane.type("a draft");
      await pane.keys("Up");
      await pane.waitFor(/│ › first task/);
      await pane.keys("Down");
      await pane.waitFor(/│ › a draft/);
      await pane.keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace");
      await pane.keys("Up");
      await pane.waitFor(/│ › first task/);
      await pane.keys("Enter");
      await pane.waitFor(/Did it again\./);
      assert.equal(sim.requests[1]!.json.messages.at(-1).content.includes("first task"), true);
      const stored = new InputHistory(
        resolvePaths({ REASONIX_HOME: home }).sessionsDir,
        await Deno.realPath(workspace),
      );
      assert.deepEqual(
        await stored.load(),
        ["first task"],
        "a repeat of the newest line is not stored twice",
      );
    },
  );
});

Deno.test("tui: a long streamed answer settles block by block: the scrollback holds every paragraph once, in order", async () => {
  const paragraphs = Array.from(
    { length: 60 },
    (_, i) => `Paragraph p${String(i).padStart(3, "0")} of the long answer.`,
  );
  const content = ["# Long answer", ...paragraphs, "```ts\nconst done = true;\n```"].join("\n\n");
  await withTui([{ content, chunkSize: 7 }], async ({ pane }) => {
    await pane.type("write a lot");
    await pane.keys("Enter");
    await pane.waitFor(/const done = true;/);
    await pane.waitFor(/% cached\)/);
    const scrollback = await pane.run("capture-pane", "-p", "-S", "-", "-t", "main");
    const seen = [...scrollback.matchAll(/p(\d{3}) of the long answer/g)].map((m) => Number(m[1]));
    assert.deepEqual(seen, paragraphs.map((_, i) => i), scrollback);
  }, [80, 24]);
});

Deno.test("line mode answers slash commands in the configured language (language = zh-CN)", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url });
  const workspace = await makeWorkspace({ "reasonix.toml": 'language = "zh-CN"\n' });
  try {
    const result = await runCli([], { home, cwd: workspace, stdin: "/permissions\n/nope\n" });
    assert.match(result.stdout, /权限模式：ask/);
    assert.match(result.stdout, /未知命令 \/nope。/);
    assert.equal(sim.requests.length, 0);
  } finally {
    await sim.close();
    await removeAll(home, workspace);
  }
});
