import assert from "node:assert/strict";
import { resolve } from "node:path";
import type { TmuxPane } from "../support/tmux.ts";
import { withTui } from "../support/tui.ts";

const SLOW_START = resolve(import.meta.dirname!, "fixtures/slow_start_entry.ts");

async function enter(pane: TmuxPane, text: string, shows: RegExp): Promise<string> {
  await pane.waitFor((screen) => !screen.includes("working…"));
  await pane.type(text);
  await pane.keys("Enter");
  return await pane.waitFor(shows);
}

function lastUserText(body: string): string {
  const messages = JSON.parse(body).messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === "user").at(-1)!.content;
}

Deno.test("tui keys: Ctrl+U empties the draft, so /quit quits; the exit line says how to continue", async () => {
  await withTui([{ content: "Answer one." }], async ({ pane, sim }) => {
    await enter(pane, "first task", /Answer one\./);
    await pane.type("some draft text");
    await pane.waitFor(/some draft text/);
    await pane.keys("C-u");
    await pane.waitFor((screen) => !screen.includes("some draft text"));
    await pane.type("/quit");
    await pane.keys("Enter");
    const screen = await pane.waitFor(/TUI-EXIT=0/);
    assert.match(screen, /Session \S+ saved\. Continue it with: reasonix -c/);
    assert.equal(sim.requests.length, 1, "nothing went to the model");
  });
});

Deno.test("tui keys: Ctrl+C clears a typed draft instead of arming quit; Ctrl+D on an empty input quits", async () => {
  await withTui([], async ({ pane }) => {
    await pane.type("half a thought");
    await pane.waitFor(/half a thought/);
    await pane.keys("C-c");
    const cleared = await pane.waitFor((screen) => !screen.includes("half a thought"));
    assert.doesNotMatch(cleared, /Press Ctrl\+C again/);
    await pane.keys("C-d");
    const screen = await pane.waitFor(/TUI-EXIT=0/);
    assert.doesNotMatch(screen, /Continue it with/, `no turn, nothing to continue:\n${screen}`);
  });
});

Deno.test("tui keys: Shift+Tab cycles the permission mode shown in the status line", async () => {
  await withTui([], async ({ pane }) => {
    await pane.waitFor(/ · ask · /);
    await pane.keys("BTab");
    await pane.waitFor(/ · auto · /);
    await pane.keys("BTab");
    await pane.waitFor(/ · yolo · /);
    await pane.keys("BTab");
    await pane.waitFor(/ · plan · /);
    await pane.keys("BTab");
    await pane.waitFor(/ · ask · /);
    await enter(pane, "/permissions", /Permission mode: ask|mode is ask/i);
  });
});

Deno.test("tui keys: `exit` typed alone asks whether /quit was meant", async () => {
  await withTui([{ content: "Exit noted." }], async ({ pane, sim }) => {
    await enter(pane, "exit", /Did you mean \/quit\?/);
    await pane.keys("Down", "Enter");
    await pane.waitFor(/Exit noted\./);
    assert.equal(lastUserText(sim.requests[0]!.body).includes("exit"), true);
    await enter(pane, "quit", /Did you mean \/quit\?/);
    await pane.keys("Enter");
    await pane.waitFor(/TUI-EXIT=0/);
  });
});

Deno.test("tui keys: a prompt on the command line is sent once the shell is up", async () => {
  await withTui([{ content: "Looking at the failing test." }], async ({ pane, sim }) => {
    await pane.waitFor(/Looking at the failing test\./);
    assert.match(lastUserText(sim.requests[0]!.body), /fix the failing test/);
  }, { args: ["fix the failing test"] });
});

Deno.test("tui keys: keys typed while Reasonix starts are kept, and Enter sends them", async () => {
  await withTui([{ content: "Typed ahead fine." }], async ({ pane, sim }) => {
    await pane.type("early words");
    await pane.keys("Enter");
    await pane.waitFor(/Typed ahead fine\./);
    assert.match(lastUserText(sim.requests[0]!.body), /early words/);
  }, { entry: SLOW_START, ready: /(?:)/ });
});
