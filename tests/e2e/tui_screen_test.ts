/**
 * Screen integrity in tmux: a resize in the middle of a stream, an approval card on an 80×14 pane,
 * and a long prompt leave one copy of everything in the scrollback and keep the frame on screen.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { withTui } from "../support/tui.ts";
import type { TmuxPane } from "../support/tmux.ts";

const DONE = (screen: string) => !screen.includes("working…");
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The whole history and screen, wrapped rows joined back into the lines the program wrote. */
function scrollback(pane: TmuxPane): Promise<string> {
  return pane.run("capture-pane", "-p", "-J", "-S", "-", "-t", "main");
}

function count(text: string, pattern: RegExp): number {
  return text.match(new RegExp(pattern.source, `${pattern.flags}g`))?.length ?? 0;
}

async function resize(pane: TmuxPane, columns: number, rows: number): Promise<void> {
  await pane.run("resize-window", "-t", "main", "-x", String(columns), "-y", String(rows));
  await pause(400);
}

Deno.test("tui screen: resizing mid-stream leaves each answer line once in the scrollback and no stale frames", async () => {
  const answer = Array.from(
    { length: 40 },
    (_, i) => `Line ${i + 1} of the streamed answer, long enough to wrap.`,
  )
    .join("\n\n");
  await withTui([{ content: answer, chunkSize: 6, tokensPerSecond: 60 }], async ({ pane }) => {
    await pane.type("go");
    await pane.keys("Enter");
    await pane.waitFor(/Line 5 of/);
    await resize(pane, 80, 14);
    await resize(pane, 60, 12);
    await resize(pane, 100, 30);
    await resize(pane, 120, 45);
    await pane.waitFor((screen) => DONE(screen) && /Line 40 of[\s\S]*cost \d/.test(screen));
    await pause(300);
    const history = await scrollback(pane);
    for (let line = 1; line <= 40; line++) {
      assert.equal(count(history, new RegExp(`Line ${line} of`)), 1, `Line ${line} once:\n${history}`);
    }
    assert.equal(count(history, /┌─/), 1, `one input box, the live one:\n${history}`);
    assert.equal(count(history, /writing ·/), 0, `no spinner line left behind:\n${history}`);
    assert.equal(count(history, /deepseek-flash · ask/), 1, `one status line:\n${history}`);
  }, { size: [120, 45] });
});

function bigWrite(lines: number): string {
  const content = Array.from({ length: lines }, (_, i) => `content line ${i + 1}`).join("\n") + "\n";
  return JSON.stringify({ path: "big.txt", content });
}

Deno.test("tui screen: on an 80×14 pane the approval card keeps its title and choices, cuts the diff and scrolls it", async () => {
  await withTui(
    [{ reasoning: "write it", toolCalls: [{ name: "write_file", arguments: bigWrite(40) }] }, {
      content: "Wrote.",
    }],
    async ({ pane, workspace }) => {
      await pane.type("write");
      await pane.keys("Enter");
      const card = await pane.waitFor(/Allow once/);
      assert.match(card, /Allow write_file\?/, card);
      assert.match(card, /4 Deny/);
      assert.match(card, /… \d+ more diff lines/);
      assert.match(card, /↑\/↓ PgUp\/PgDn scroll the diff/);
      assert.match(card, /deepseek-flash · ask/, "the status line shows under the card");
      assert.ok(card.trimEnd().split("\n").length <= 14, card);
      await pane.keys("PageDown");
      const paged = await pane.waitFor(/… 5 diff lines above/);
      assert.match(paged, / 5 \+ content line 5/);
      assert.match(paged, /Allow write_file\?[\s\S]*4 Deny/, paged);
      await pane.keys("Up");
      await pane.waitFor(/… 4 diff lines above/);
      for (let i = 0; i < 60; i++) await pane.keys("Down");
      const end = await pane.waitFor(/40 \+ content line 40/);
      assert.ok(!/more diff lines/.test(end), end);
      const waiting = await scrollback(pane);
      assert.equal(count(waiting, /Allow write_file\?/), 1, `the card is drawn once:\n${waiting}`);
      await pane.type("1");
      await pane.waitFor((screen) => DONE(screen) && /Wrote\./.test(screen));
      const history = await scrollback(pane);
      assert.equal(count(history, /Allow write_file\?/), 0, `no copy of the card is left:\n${history}`);
      assert.equal(count(history, /^› write\s*$/m), 1, history);
      assert.equal((await Deno.readTextFile(join(workspace, "big.txt"))).split("\n").length, 41);
    },
    { size: [80, 14] },
  );
});

Deno.test("tui screen: on a 120×45 pane a short diff shows whole; after a resize to 80×14 the card is cut to fit, drawn once", async () => {
  await withTui(
    [{ reasoning: "write it", toolCalls: [{ name: "write_file", arguments: bigWrite(12) }] }, {
      content: "Wrote.",
    }],
    async ({ pane }) => {
      await pane.type("write");
      await pane.keys("Enter");
      const card = await pane.waitFor(/Allow once/);
      assert.match(card, /12 \+ content line 12/);
      assert.ok(!/more diff lines|scroll the diff/.test(card), card);
      await resize(pane, 80, 14);
      const small = await pane.waitFor(/more diff lines/);
      assert.match(small, /Allow write_file\?[\s\S]*4 Deny/, small);
      assert.equal(
        count(await scrollback(pane), /Allow write_file\?/),
        1,
        "the card is drawn once after the resize",
      );
      await pane.type("1");
      await pane.waitFor(/Wrote\./);
    },
    { size: [120, 45] },
  );
});

Deno.test("tui screen: a long prompt is windowed in the input and a 5000-character paste goes whole without garbling", async () => {
  const paste = "x".repeat(5000);
  await withTui([{ content: "Got it." }], async ({ pane, sim }) => {
    await pane.type("word ".repeat(120).trim());
    const typed = await pane.waitFor(/more rows of input/);
    const rows = typed.split("\n");
    assert.ok(rows.some((row) => row.startsWith("┌─")), `the box's top shows:\n${typed}`);
    assert.ok(rows.some((row) => row.startsWith("deepseek-flash · ask")), `the status line shows:\n${typed}`);
    await pane.paste(paste);
    await pane.waitFor(/\[Pasted text #1 · 5000 chars\]/);
    await pane.keys("Enter");
    await pane.waitFor((screen) => DONE(screen) && /Got it\./.test(screen));
    assert.ok(JSON.stringify(sim.requests[0]!.json.messages.at(-1)).includes(paste));
    const history = await scrollback(pane);
    const wide = history.split("\n").filter((line) => [...line].length > 80);
    assert.deepEqual(wide, [], "every printed line fits the 80 columns");
    assert.equal(count(history, /┌─/), 1, `one input box, the live one:\n${history}`);
  }, { size: [80, 14] });
});
