/**
 * @module
 * The TUI killed from outside: SIGTERM (`kill`), SIGHUP (the terminal window closed) and SIGKILL, in the
 * middle of a bash call with a background job running, or in the middle of a streamed answer. The
 * terminal comes back in its normal modes, no `sleep` it started is left, and `reasonix -c` shows the
 * transcript and continues with a request in which every tool call has its result.
 */
import assert from "node:assert/strict";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { sessionFiles } from "../support/cli.ts";
import { eventually, sleepers, sleepTag } from "../support/processes.ts";
import { TmuxPane } from "../support/tmux.ts";
import { tuiCommand, withTui } from "../support/tui.ts";

function parentOf(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** The reasonix process the pane's shell started (the one a user's `kill` names). */
async function reasonixPid(pane: TmuxPane): Promise<number> {
  const shell = Number((await pane.run("display-message", "-p", "-t", "main", "#{pane_pid}")).trim());
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      if (parentOf(Number(entry.name)) === shell) return Number(entry.name);
    } catch {
      // Gone.
    }
  }
  throw new Error("no reasonix process under the pane's shell");
}

function childrenOf(pid: number): number[] {
  return [...Deno.readDirSync("/proc")].filter((e) => /^\d+$/.test(e.name)).map((e) => Number(e.name))
    .filter((child) => {
      try {
        return parentOf(child) === pid;
      } catch {
        return false;
      }
    });
}

function alive(pid: number): boolean {
  try {
    return !Deno.readTextFileSync(`/proc/${pid}/stat`).includes(") Z ");
  } catch {
    return false;
  }
}

function toolCallTurn(tag: string): ScriptedReply {
  return {
    content: "Running it.",
    toolCalls: [
      { name: "bash", arguments: JSON.stringify({ command: `sleep 41.${tag}`, run_in_background: true }) },
      { name: "bash", arguments: JSON.stringify({ command: `sleep 30.${tag}` }) },
    ],
  };
}

/** Every tool call of the request has its result right after it. */
function assertPaired(sim: DeepSeekSim, index: number): void {
  const messages = sim.requests[index]!.json.messages as {
    role: string;
    tool_calls?: { id: string }[];
    tool_call_id?: string;
  }[];
  messages.forEach((message, at) => {
    for (const call of message.tool_calls ?? []) {
      const results = messages.slice(at + 1).filter((m) => m.role === "tool").map((m) => m.tool_call_id);
      assert.ok(results.includes(call.id), `tool call ${call.id} has no result`);
    }
  });
}

/** `reasonix -c` in a new pane: the old transcript shows, and one more turn goes through. */
async function resumeAndContinue(
  tui: { sim: DeepSeekSim; home: string; workspace: string },
  shows: RegExp,
  answer: RegExp,
): Promise<void> {
  const pane = new TmuxPane();
  try {
    await pane.start(tuiCommand(tui.home, tui.workspace, { args: ["-c", "--yolo"] }), 100, 30);
    await pane.waitFor(shows);
    await pane.type("go on");
    await pane.keys("Enter");
    await pane.waitFor(answer);
    assertPaired(tui.sim, tui.sim.requests.length - 1);
  } finally {
    await pane.kill();
  }
}

/**
 * The session file parses line by line. `closed`: the turn was ended in order before the exit, so every
 * tool call on disk already has its result and no repair is needed at the next load.
 */
async function sessionOnDisk(home: string, closed: boolean): Promise<{ type: string; name?: string }[]> {
  const [file] = await sessionFiles(home);
  assert.ok(file, "a session file was written");
  const lines = (await Deno.readTextFile(file)).split("\n").filter((line) => line !== "");
  const records = lines.map((line) => JSON.parse(line));
  if (closed) {
    const messages = records.filter((r) => r.type === "message").map((r) => r.message);
    const calls = messages.flatMap((m) => (m.tool_calls ?? []).map((c: { id: string }) => c.id));
    const results = messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
    for (const id of calls) assert.ok(results.includes(id), `tool call ${id} has no result on disk`);
  }
  return records;
}

/** The pane's terminal after the TUI left: cooked mode, cursor shown, no alternate screen or mouse. */
async function assertTerminalRestored(pane: TmuxPane): Promise<void> {
  const flags = await pane.run(
    "display-message",
    "-p",
    "-t",
    "main",
    "#{cursor_flag} #{alternate_on} #{mouse_any_flag} #{keypad_cursor_flag}",
  );
  assert.equal(flags.trim(), "1 0 0 0", "cursor shown; alternate screen, mouse and keypad modes off");
  const tty = (await pane.run("display-message", "-p", "-t", "main", "#{pane_tty}")).trim();
  const stty = await new Deno.Command("stty", { args: ["-a", "-F", tty], stdout: "piped" }).output();
  const modes = ` ${new TextDecoder().decode(stty.stdout).replaceAll("\n", " ")} `;
  assert.match(modes, / icanon /, "raw mode is off");
  assert.match(modes, / echo /, "echo is back on");
  // Bracketed paste off: a paste reaches the shell's terminal bare, not inside ESC[200~ … ESC[201~.
  await pane.paste("PASTED-AFTER");
  const screen = await pane.waitFor(/PASTED-AFTER/);
  assert.doesNotMatch(screen, /\[200~/);
}

const YOLO = { args: ["--yolo"] };

/** Bash calls in bubblewrap (which takes its processes along when its parent dies) or bare. */
const SANDBOXES = { bubblewrap: {}, none: { extraToml: () => "[sandbox]\nbash = false\n" } };

for (
  const [signal, sandbox] of [["SIGTERM", "none"], ["SIGTERM", "bubblewrap"], ["SIGHUP", "none"]] as const
) {
  const restored = signal === "SIGTERM" ? "terminal restored, " : "";
  const title =
    `tui ${signal} mid-tool (${sandbox}): ${restored}turn closed on disk, no sleep left, -c resumes`;
  Deno.test(title, async () => {
    const tag = sleepTag();
    const script = [toolCallTurn(tag), { content: "Picked up again." }];
    await withTui(script, async (tui) => {
      const { pane } = tui;
      await pane.type("start the sleeps");
      await pane.keys("Enter");
      assert.ok(await eventually(() => sleepers(tag).length === 2, 20_000), "both sleeps run");
      const pid = await reasonixPid(pane);
      // A closed terminal window: the kernel sends SIGHUP to the pane's foreground process group.
      if (signal === "SIGHUP") await pane.run("kill-pane", "-t", "main");
      else Deno.kill(pid, signal);
      if (signal === "SIGTERM") {
        const screen = await pane.waitFor(/TUI-EXIT=\d+/);
        assert.match(screen, /TUI-EXIT=143/);
        assert.match(screen, /Interrupted by SIGTERM/);
        assert.match(screen, /Continue it with: reasonix -c/);
        await assertTerminalRestored(pane);
      }
      assert.ok(await eventually(() => !alive(pid), 15_000), "reasonix exited");
      assert.ok(await eventually(() => sleepers(tag).length === 0, 5_000), `sleeps left: ${sleepers(tag)}`);
      await sessionOnDisk(tui.home, true);
      await resumeAndContinue(tui, /start the sleeps/, /Picked up again\./);
      const records = await sessionOnDisk(tui.home, true);
      assert.ok(!records.some((r) => r.name === "interrupted_turn_closed"), "nothing needed repair");
    }, { ...YOLO, ...SANDBOXES[sandbox] });
  });
}

Deno.test("tui SIGTERM mid-stream: the turn is closed naming the signal, -c continues with a valid request", async () => {
  const long = "Streaming slowly " + "word ".repeat(200);
  const script: ScriptedReply[] = [{ content: long, chunkSize: 4, tokensPerSecond: 20 }, {
    content: "Second answer.",
  }];
  await withTui(script, async (tui) => {
    const { pane } = tui;
    await pane.type("talk slowly");
    await pane.keys("Enter");
    await pane.waitFor(/Streaming slowly/);
    Deno.kill(await reasonixPid(pane), "SIGTERM");
    const screen = await pane.waitFor(/TUI-EXIT=\d+/);
    assert.match(screen, /TUI-EXIT=143/);
    await assertTerminalRestored(pane);
    await sessionOnDisk(tui.home, true);
    await resumeAndContinue(tui, /talk slowly/, /Second answer\./);
    // The interrupted turn is closed by an assistant message naming the signal.
    const messages: { role: string; content: string }[] = tui.sim.requests.at(-1)!.json.messages;
    assert.deepEqual(messages.slice(-3).map((m) => m.role), ["user", "assistant", "user"]);
    assert.match(messages.at(-2)!.content, /Interrupted by SIGTERM/);
  }, YOLO);
});

Deno.test("tui SIGKILL mid-tool: no cleanup, yet -c loads the session and repairs the open tool call", async () => {
  const tag = sleepTag();
  await withTui([toolCallTurn(tag), { content: "After the crash." }], async (tui) => {
    const { pane } = tui;
    await pane.type("start the sleeps");
    await pane.keys("Enter");
    assert.ok(await eventually(() => sleepers(tag).length === 2, 20_000), "both sleeps run");
    const pid = await reasonixPid(pane);
    const fenced = childrenOf(pid);
    Deno.kill(pid, "SIGKILL");
    assert.ok(await eventually(() => ![pid, ...fenced].some(alive), 15_000), "every reasonix process ended");
    // The fenced child watches its parent and takes its children with it.
    assert.ok(await eventually(() => sleepers(tag).length === 0, 10_000), `sleeps left: ${sleepers(tag)}`);
    await sessionOnDisk(tui.home, false);
    await resumeAndContinue(tui, /start the sleeps/, /After the crash\./);
    // On disk the load only closed the turn; the calls' results are made up again at each load.
    const records = await sessionOnDisk(tui.home, false);
    assert.ok(records.some((r) => r.name === "interrupted_turn_closed"), "the load repaired the open call");
  }, YOLO);
});
