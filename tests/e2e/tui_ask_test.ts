import assert from "node:assert/strict";
import { join } from "node:path";
import { withTui } from "../support/tui.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";

const ASK_ARGS = JSON.stringify({
  questions: [{
    header: "Indent",
    question: "Tabs or spaces for this repo?",
    options: [{ label: "Tabs" }, { label: "Spaces", description: "two per level" }],
  }],
});

Deno.test("tui: an ask call shows a choice card; 2 + Enter answers and the next request carries the label", async () => {
  await withTui(
    [{ toolCalls: [{ name: "ask", arguments: ASK_ARGS }] }, { content: "Spaces it is." }],
    async ({ pane, sim }) => {
      await pane.type("set up formatting");
      await pane.keys("Enter");
      const card = await pane.waitFor(/Tabs or spaces for this repo\?/);
      assert.match(card, /\? Indent/);
      assert.match(card, /›1 Tabs/);
      assert.match(card, /2 Spaces — two per level/);
      assert.match(card, /3 Other…/);
      await pane.type("2");
      await pane.waitFor(/›2 Spaces/);
      await pane.keys("Enter");
      const after = await pane.waitFor(/Spaces it is\./);
      assert.match(after, /› Type a task/, "the keys answered the card, not the input box");
      const tool = sim.requests[1]!.json.messages.find((m: { role: string }) => m.role === "tool");
      assert.equal(tool.content, 'The user answered:\n- Indent: "Spaces"');
    },
  );
});

Deno.test("tui: Esc on a question card declines it, and the turn goes on", async () => {
  await withTui(
    [{ toolCalls: [{ name: "ask", arguments: ASK_ARGS }] }, { content: "I will assume tabs." }],
    async ({ pane, sim }) => {
      await pane.type("set up formatting");
      await pane.keys("Enter");
      await pane.waitFor(/Tabs or spaces for this repo\?/);
      await pane.keys("Escape");
      await pane.waitFor(/I will assume tabs\./);
      const tool = sim.requests[1]!.json.messages.find((m: { role: string }) => m.role === "tool");
      assert.match(tool.content, /^The user declined to answer/);
    },
  );
});

Deno.test("tui: the Other row takes a typed Chinese answer", async () => {
  await withTui(
    [{ toolCalls: [{ name: "ask", arguments: ASK_ARGS }] }, { content: "好的。" }],
    async ({ pane, sim }) => {
      await pane.type("set up formatting");
      await pane.keys("Enter");
      await pane.waitFor(/Tabs or spaces for this repo\?/);
      await pane.type("3");
      await pane.waitFor(/Your answer:/);
      await pane.type("四个空格");
      await pane.waitFor(/Your answer: 四个空格/);
      await pane.keys("Enter");
      await pane.waitFor(/好的。/);
      const tool = sim.requests[1]!.json.messages.find((m: { role: string }) => m.role === "tool");
      assert.equal(tool.content, 'The user answered:\n- Indent: their own answer "四个空格"');
    },
  );
});

Deno.test("tui: #use tabs writes AGENTS.md and the next request's last user message has it; messages[0] is unchanged", async () => {
  await withTui(
    [{ content: "First reply." }, { content: "Tabs from now on." }],
    async ({ pane, sim, workspace }) => {
      await pane.type("hello");
      await pane.keys("Enter");
      await pane.waitFor(/First reply\./);
      await pane.type("#use tabs");
      await pane.keys("Enter");
      await pane.waitFor(/Remembered in AGENTS\.md: use tabs/);
      assert.match(await Deno.readTextFile(join(workspace, "AGENTS.md")), /\n- use tabs\n$/);
      assert.equal(sim.requests.length, 1, "the note is not sent as a turn of its own");
      await pane.type("indent the file");
      await pane.keys("Enter");
      await pane.waitFor(/Tabs from now on\./);
      const [first, second] = [sim.requests[0]!.json.messages, sim.requests[1]!.json.messages];
      assert.equal(JSON.stringify(second[0]), JSON.stringify(first[0]));
      assert.match(
        second.at(-1).content,
        /^indent the file\n\n<turn-context>[\s\S]*Standing instruction added.*use tabs/,
      );
    },
  );
});

Deno.test("tui: /diff shows a change in a git repository as a diff", async () => {
  await withTui([], async ({ pane, workspace }) => {
    for (const args of [["init", "-q"], ["add", "README.md"], ["commit", "-q", "-m", "init"]]) {
      const out = await new Deno.Command("git", {
        args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
        cwd: workspace,
        stdout: "null",
        stderr: "null",
      }).output();
      assert.equal(out.code, 0);
    }
    await Deno.writeTextFile(join(workspace, "README.md"), "fixture\nchanged line\n");
    await pane.type("/diff");
    await pane.keys("Enter");
    const screen = await pane.waitFor(/\+changed line/);
    assert.match(screen, /diff --git a\/README\.md b\/README\.md/);
    assert.match(screen, /@@ -1 \+1,2 @@/);
  });
});

Deno.test("tui: /sandbox prints the backend in force", async () => {
  await withTui([], async ({ pane, workspace }) => {
    await pane.type("/sandbox");
    await pane.keys("Enter");
    const screen = await pane.waitFor(/Backend: +\S/);
    assert.match(screen, /Backend: +(bubblewrap|Seatbelt|none)/);
    assert.ok(screen.includes(`Writable:   ${workspace}`), screen);
  });
});

Deno.test("reasonix with stdout piped prints the question numbered and takes the next stdin line as the answer", async () => {
  const multi = JSON.stringify({
    questions: [
      JSON.parse(ASK_ARGS).questions[0],
      {
        header: "Checks",
        question: "Which checks?",
        options: [{ label: "lint" }, { label: "fmt" }],
        multiSelect: true,
      },
    ],
  });
  const sim = await DeepSeekSim.start({
    script: [{ toolCalls: [{ name: "ask", arguments: multi }] }, { content: "Configured." }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const workspace = await makeWorkspace({});
  try {
    const result = await runCli([], {
      home,
      cwd: workspace,
      stdin: "set up formatting\n2\n1, 3\nand tests\n",
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /\? Indent: Tabs or spaces for this repo\?\n {2}1\) Tabs\n {2}2\) Spaces — two per level\n {2}3\) Other…/,
    );
    assert.match(result.stdout, /Answer with numbers 1–3 \(comma-separated\)/);
    assert.match(result.stdout, /Configured\./);
    const tool = sim.requests[1]!.json.messages.find((m: { role: string }) => m.role === "tool");
    assert.equal(
      tool.content,
      'The user answered:\n- Indent: "Spaces"\n- Checks: "lint", their own answer "and tests"',
    );
    assert.equal(sim.requests.length, 2, "the answer lines were not sent as turns");
  } finally {
    await sim.close();
    await removeAll(home, workspace);
  }
});
