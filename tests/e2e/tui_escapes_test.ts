/**
 * The real TUI in tmux, with tmux listening for the sequences an injected model would print: an
 * answer with OSC 0 and OSC 52 neither retitles the pane nor writes tmux's clipboard buffer, and the
 * approval card shows a command's escapes as marks.
 */
import assert from "node:assert/strict";
import { withTui } from "../support/tui.ts";
import type { TmuxPane } from "../support/tmux.ts";

const DONE = (screen: string) => !screen.includes("working…");

/** Proves the probe works: a plain program's OSC 0 and OSC 52 do reach tmux here. */
async function assertTmuxListens(pane: TmuxPane): Promise<void> {
  await pane.run(
    "new-window",
    "-d",
    "-n",
    "canary",
    `printf '\\033]0;CANARY\\007\\033]52;c;Q0FOQVJZ\\007'; sleep 30`,
  );
  for (let i = 0; i < 50; i++) {
    if ((await pane.run("display", "-p", "-t", "canary", "#{pane_title}")).trim() === "CANARY") break;
    await new Promise((done) => setTimeout(done, 100));
  }
  assert.equal((await pane.run("display", "-p", "-t", "canary", "#{pane_title}")).trim(), "CANARY");
  assert.equal(await pane.run("show-buffer"), "CANARY");
  await pane.run("kill-window", "-t", "canary");
  await pane.run("delete-buffer");
}

Deno.test("tui: an answer's OSC 0 and OSC 52 change neither the pane title nor the clipboard; the approval card shows a command's escapes", async () => {
  const command = "echo hi\x1b]0;PWNED\x07\x1b[2K";
  await withTui(
    [
      { toolCalls: [{ name: "bash", arguments: JSON.stringify({ command }) }] },
      { content: "Title\x1b]0;PWNED\x07 set,\x1b]52;c;SGVsbG8=\x07 copied \x9b2J\u202eSAFE\u202c end." },
    ],
    async ({ pane }) => {
      await pane.run("set-option", "-g", "set-clipboard", "on");
      await assertTmuxListens(pane);
      const before = (await pane.run("display", "-p", "-t", "main", "#{pane_title}")).trim();
      await pane.type("go");
      await pane.keys("Enter");
      const card = await pane.waitFor(/Deny/);
      assert.match(card, /echo hi␛\]0;PWNED␇␛\[2K/);
      await pane.keys("4");
      const screen = await pane.waitFor((text) => DONE(text) && /copied/.test(text));
      assert.match(screen, /Title set, copied SAFE end\./);
      assert.equal((await pane.run("display", "-p", "-t", "main", "#{pane_title}")).trim(), before);
      assert.notEqual(before, "PWNED");
      assert.equal(await pane.run("show-buffer"), "", "no OSC 52 reached tmux");
    },
  );
});
