import assert from "node:assert/strict";
import { stderrProgress } from "../../../src/frontends/run/progress.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

Deno.test("run progress: the spinner draws in place on stderr, and is wiped before other output", async () => {
  setLanguage("en");
  const written: string[] = [];
  let atLineStart = true;
  const progress = stderrProgress({
    writeError: (text) => written.push(text),
    columns: () => 80,
    atLineStart: () => atLineStart,
  });
  progress.update({ type: "turn_started", turn: 1, text: "go" });
  progress.update({ type: "tool_call", callId: "c", name: "bash", arguments: "{}", readOnly: false });
  await wait(600);
  assert.ok(written.length >= 1);
  assert.ok(written.at(-1)!.startsWith("\r\x1b[2K"), "drawn in place");
  assert.match(written.at(-1)!, /running bash · 0s$/);
  progress.clear();
  assert.equal(written.at(-1), "\r\x1b[2K");
  atLineStart = false;
  const before = written.length;
  await wait(600);
  assert.equal(written.length, before, "no redraw over an unfinished stdout line");
  progress.update({ type: "turn_done", subtype: "success", result: "ok" });
  atLineStart = true;
  await wait(400);
  assert.equal(written.length, before, "stopped with the turn");
});
