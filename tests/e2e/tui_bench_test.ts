import assert from "node:assert/strict";
import { benchAnswer } from "../../scripts/_bench_tui_answer.ts";
import { tuiContenders } from "../../scripts/_bench_tui_pane.ts";
import { measureFirstPaint } from "../../scripts/_bench_tui_paint.ts";
import { measureStream } from "../../scripts/_bench_tui_stream.ts";

const OURS = tuiContenders(null, "")[0]!;

Deno.test("tui bench: first paint finds our input prompt and the RSS of the process in the pane", async () => {
  const [figures] = await measureFirstPaint(OURS, 1);
  assert.ok(figures!.ms > 0);
  assert.ok(figures!.rssMb > 10, `a deno process holds more than 10 MB, got ${figures!.rssMb}`);
});

Deno.test("tui bench: a paced Markdown answer streams through the real app until its last line shows", async () => {
  const answer = benchAnswer(120);
  const [figures] = await measureStream(OURS, { answer, tokensPerSecond: 400, runs: 1, timeoutMs: 120_000 });
  assert.equal(figures!.finished, true);
  assert.equal(figures!.shownTokens, answer.tokens);
  assert.ok(figures!.wallMs >= figures!.lagMs);
  assert.ok(figures!.trailP95 >= figures!.trailP50);
  assert.ok(figures!.trailP95 <= answer.tokens);
  assert.ok(figures!.rssMb > 10);
});

Deno.test("tui bench: a run past its timeout is reported unfinished with what was on screen, and not repeated", async () => {
  const answer = benchAnswer(120);
  const figures = await measureStream(OURS, { answer, tokensPerSecond: null, runs: 3, timeoutMs: 0 });
  assert.equal(figures.length, 1);
  assert.equal(figures[0]!.finished, false);
  assert.ok(figures[0]!.shownTokens < answer.tokens);
});
