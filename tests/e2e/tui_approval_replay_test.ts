/**
 * @module
 * Answered approvals stay in the transcript: the TUI writes a line when a card is answered, and
 * `reasonix -c` redraws the same lines from the session's approval entries.
 */
import assert from "node:assert/strict";
import { TmuxPane } from "../support/tmux.ts";
import { tuiCommand, withTui } from "../support/tui.ts";

const WRITE_NOTES = {
  toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: "notes.txt", content: "hi\n" }) }],
};
const RUN_ECHO = { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: "touch made.txt" }) }] };
const ALLOWED = /Allowed once: write_file notes\.txt/;
const DENIED = /Denied: bash touch made\.txt/;

Deno.test("tui: answered approvals show as transcript lines live and again after reasonix -c", async () => {
  const script = [WRITE_NOTES, { content: "Wrote it." }, RUN_ECHO, { content: "Skipped it." }];
  await withTui(script, async ({ pane, home, workspace }) => {
    await pane.type("write notes");
    await pane.keys("Enter");
    await pane.waitFor(/›1 Allow once/);
    await pane.type("1");
    const first = await pane.waitFor(/Wrote it\./);
    assert.match(first, ALLOWED);
    await pane.waitFor((screen) => !screen.includes("working…"));
    await pane.type("run echo");
    await pane.keys("Enter");
    await pane.waitFor(/›1 Allow once/);
    await pane.type("4");
    const second = await pane.waitFor(/Skipped it\./);
    assert.match(second, DENIED);
    await pane.waitFor((screen) => !screen.includes("working…"));
    await pane.keys("C-d");
    await pane.waitFor(/TUI-EXIT=0/);
    const resumed = new TmuxPane();
    try {
      await resumed.start(tuiCommand(home, workspace, { args: ["-c"] }), 100, 40);
      const screen = await resumed.waitFor(/Skipped it\./);
      assert.match(screen, ALLOWED);
      assert.match(screen, DENIED);
      // In the order they happened: each line below its own turn's prompt.
      const at = (pattern: RegExp) => screen.search(pattern);
      assert.ok(
        at(/write notes/) < at(ALLOWED) && at(ALLOWED) < at(/run echo/) && at(/run echo/) < at(DENIED),
      );
    } finally {
      await resumed.kill();
    }
  });
});
