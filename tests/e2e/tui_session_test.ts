import assert from "node:assert/strict";
import { join } from "node:path";
import { makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";
import { splitBody } from "../support/prefix_guard.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import type { TmuxPane } from "../support/tmux.ts";
import { withTui } from "../support/tui.ts";
import { secondProvider } from "../control/_second_provider.ts";

async function enter(pane: TmuxPane, text: string, shows: RegExp): Promise<string> {
  // Type only once the previous turn is over, as a person reading the screen would (it flaked under load).
  await pane.waitFor((screen) => !screen.includes("working…"));
  await pane.type(text);
  await pane.keys("Enter");
  return await pane.waitFor(shows);
}

function roles(sim: DeepSeekSim, index: number): string[] {
  return sim.requests[index]!.json.messages.map((message: { role: string }) => message.role);
}

Deno.test("tui session: /new starts a fresh session; /rename and /resume bring the old one back with its exact prefix", async () => {
  await withTui(
    [{ content: "Noted 31." }, { content: "Other answer." }, { content: "You said 31." }],
    async ({ pane, sim, home }) => {
      await enter(pane, "remember 31", /Noted 31\./);
      await enter(pane, "/rename Memory test", /Session named "Memory test"/);
      await enter(pane, "/new", /The previous session \S+ is saved/);
      await enter(pane, "other task", /Other answer\./);
      assert.deepEqual(
        roles(sim, 1),
        ["system", "user", "user"],
        "the new session starts from a fresh prefix",
      );
      assert.equal(splitBody(sim.requests[1]!.body).system, splitBody(sim.requests[0]!.body).system);
      const sessions = (await sessionFiles(home)).filter((file) =>
        /\d{8}-\d{6}-[0-9a-f]{8}\.jsonl$/.test(file)
      );
      assert.equal(sessions.length, 2);
      const picker = await enter(pane, "/resume", /Resume a session of this workspace/);
      assert.match(picker, /1 other task {2}just now · 1 turn · ¥[\d.]+ · current/);
      assert.match(picker, /2 Memory test {2}just now · 1 turn/);
      await pane.keys("Escape");
      await pane.waitFor((screen) => !screen.includes("Resume a session of this workspace"));
      await enter(pane, "/resume memory", /Resumed "Memory test" \(1 turn\)/);
      await enter(pane, "what did I say", /You said 31\./);
      const resumed = splitBody(sim.requests[2]!.body).messagesOpen;
      assert.ok(resumed.startsWith(splitBody(sim.requests[0]!.body).messagesOpen), "byte-identical prefix");
      assert.ok(!sim.requests[2]!.body.includes("other task"));
    },
  );
});

Deno.test("tui session: /model switches the status line's model, /effort changes the next request's effort", async () => {
  await withTui([{ content: "Pro answer." }], async ({ pane, sim }) => {
    const models = await enter(pane, "/model", /Switch with \/model/);
    assert.match(models, /\* deepseek-flash\/deepseek-flash/);
    assert.match(models, / {2}sim-pro\/sim-pro-model/);
    await enter(pane, "/model sim-pro", /the provider cache starts cold/);
    await pane.waitFor(/^\s*sim-pro-model · /m);
    await enter(pane, "/effort max", /Reasoning effort: max, from the next request/);
    await pane.waitFor(/^\s*sim-pro-model · ask · effort max/m);
    await enter(pane, "hello", /Pro answer\./);
    assert.equal(sim.requests.length, 1);
    assert.equal(sim.requests[0]!.json.model, "sim-pro-model");
    assert.equal(sim.requests[0]!.json.reasoning_effort, "max");
  }, { extraToml: secondProvider });
});

Deno.test("tui session: /copy puts the answer on tmux's clipboard (OSC 52), /export writes it, /clear wipes the screen", async () => {
  await withTui(
    [{ content: "The answer is 你好 42." }, { content: "Fresh start." }],
    async ({ pane, sim, workspace }) => {
      await pane.run("set-option", "-g", "set-clipboard", "on");
      await enter(pane, "give me the answer", /The answer is 你好 42\./);
      await enter(pane, "/copy", /Copied the last answer \(20 characters\) via OSC 52/);
      assert.equal(await pane.run("show-buffer"), "The answer is 你好 42.");
      const exported = await enter(pane, "/export", /Exported the conversation to/);
      const file = exported.replace(/\s+/g, "").match(/to(\/\S+?\.md)/)?.[1];
      assert.ok(file?.startsWith(workspace.replace(/\s+/g, "")), exported);
      const markdown = await Deno.readTextFile(join(workspace, file!.split("/").at(-1)!));
      assert.match(markdown, /## You\n\ngive me the answer\n\n## Assistant\n\nThe answer is 你好 42\./);
      await enter(pane, "/clear", /Context cleared/);
      const cleared = await pane.waitFor((screen) => !screen.includes("give me the answer"));
      assert.ok(!cleared.includes("The answer is"), cleared);
      await enter(pane, "after clear", /Fresh start\./);
      assert.deepEqual(roles(sim, 1), ["system", "user", "user"], "the model starts fresh after /clear");
    },
  );
});

Deno.test("line mode: session commands run locally, and `reasonix session list` shows the /rename title", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "One." }, { content: "Two." }] });
  const home = await makeHome({ simUrl: sim.url });
  const workspace = await makeWorkspace({});
  try {
    const stdin = "first\n/rename Piped work\n/new\n/effort low\nsecond\n";
    const result = await runCli([], { home, cwd: workspace, stdin });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Session named "Piped work"[\s\S]*previous session \S+ is saved/);
    assert.equal(sim.requests.length, 2, "no slash command reached the model");
    assert.deepEqual(roles(sim, 1), ["system", "user", "user"]);
    assert.equal(sim.requests[1]!.json.reasoning_effort, "low");
    const list = await runCli(["session", "list"], { home, cwd: workspace });
    assert.match(list.stdout, / 1 {2}¥\S+ +deepseek-flash\/deepseek-flash {2}Piped work$/m);
  } finally {
    await sim.close();
    await removeAll(home, workspace);
  }
});

Deno.test("tui session: reasonix -c shows the earlier answer and the session cost across processes", async () => {
  await withTui([{ content: "The word is banana." }, { content: "Still banana." }], async ({ pane }) => {
    const screen = await pane.waitFor(/resumed remember banana · 1 turns · .* so far/);
    assert.match(screen, /The word is banana\./, "the earlier answer is on screen");
    const before = sessionCost(screen);
    assert.ok(before > 0, "the status line starts from the earlier process's cost");
    await enter(pane, "what word?", /Still banana\./);
    const after = await pane.waitFor(/cost \d[\d.]* \(session/);
    const turn = Number(/cost (\d[\d.]*) \(session/.exec(after)![1]);
    assert.ok(Math.abs(sessionCost(after) - (before + turn)) < 0.0002, after);
  }, {
    args: ["-c"],
    ready: /Type a task/,
    before: async (home, workspace) => {
      const run = await runCli(["run", "remember banana"], { home, cwd: workspace });
      assert.equal(run.code, 0, run.stderr);
    },
  });
});

function sessionCost(screen: string): number {
  return Number(/cost \S+ \(session (\d[\d.]*)/.exec(screen)![1]);
}
