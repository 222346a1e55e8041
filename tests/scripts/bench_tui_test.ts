import assert from "node:assert/strict";
import {
  benchAnswer,
  lastMarker,
  marker,
  TOKEN_CHARS,
  trailTokens,
} from "../../scripts/_bench_tui_answer.ts";
import {
  descendants,
  parsePpid,
  parseVmHwmKb,
  percentile,
  processTree,
  treePeakRssMb,
  waitGone,
} from "../../scripts/_bench_tui_proc.ts";

Deno.test("benchAnswer() reaches the asked tokens and mixes headings, lists, quotes, tables and fenced code", () => {
  const answer = benchAnswer(2_000);
  const points = Array.from(answer.text);
  assert.ok(answer.tokens >= 2_000);
  assert.equal(answer.tokens, Math.ceil(points.length / TOKEN_CHARS));
  assert.ok(answer.text.endsWith(answer.finalLine));
  for (
    const needle of [
      "## Section 1:",
      "\n- ",
      "\n1. ",
      "\n> ",
      "|---|",
      "```ts",
      "```python",
      "```bash",
      "```json",
    ]
  ) {
    assert.ok(answer.text.includes(needle), needle);
  }
  assert.match(answer.text, /中文/);
});

Deno.test("benchAnswer() records where each numbered marker ends, in order", () => {
  const answer = benchAnswer(300);
  const points = Array.from(answer.text);
  const count = answer.markerEnds.length - 1;
  assert.ok(count > 20);
  for (let id = 1; id <= count; id++) {
    assert.equal(points.slice(0, answer.markerEnds[id]).join("").endsWith(marker(id)), true, marker(id));
  }
  assert.equal(answer.finalLine, `END-OF-ANSWER ${marker(count)}`);
  assert.equal(answer.markerEnds.at(-1), points.length);
});

Deno.test("lastMarker() finds the highest marker on a screen, 0 without one", () => {
  assert.equal(lastMarker("m00012 text\n  m00010\n│ › qzj"), 12);
  assert.equal(lastMarker("nothing here, m123 is too short"), 0);
});

Deno.test("trailTokens() is what was sent past the last visible marker, in tokens, never negative", () => {
  const answer = benchAnswer(300);
  const end5 = answer.markerEnds[5]!;
  assert.equal(trailTokens(answer, 50 + end5 / TOKEN_CHARS, 5), 50);
  assert.equal(trailTokens(answer, 0, 5), 0);
  assert.equal(trailTokens(answer, answer.tokens, answer.markerEnds.length - 1), 0);
  assert.equal(trailTokens(answer, answer.tokens, 0), Math.round(answer.markerEnds.at(-1)! / TOKEN_CHARS));
});

Deno.test("parseVmHwmKb() reads the peak RSS line of /proc/<pid>/status", () => {
  assert.equal(
    parseVmHwmKb("Name:\tdeno\nVmPeak:\t  900 kB\nVmHWM:\t   81234 kB\nVmRSS:\t 70000 kB\n"),
    81234,
  );
  assert.equal(parseVmHwmKb("Name:\tkthreadd\n"), 0);
});

Deno.test("parsePpid() reads the parent even when the command name holds spaces and parens", () => {
  assert.equal(parsePpid("4242 (tmux: server (x)) S 17 4242 4242 0 -1"), 17);
  assert.equal(parsePpid("10114 (cat) R 10111 10111 2210 0"), 10111);
});

Deno.test("descendants() walks children and grandchildren only", () => {
  const parents = new Map([[2, 1], [3, 2], [4, 3], [5, 1], [6, 9]]);
  assert.deepEqual(descendants(2, parents).sort(), [2, 3, 4]);
  assert.deepEqual(descendants(6, parents), [6]);
});

Deno.test("percentile() is nearest-rank", () => {
  const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
  assert.equal(percentile(values, 0.5), 5);
  assert.equal(percentile(values, 0.9), 9);
  assert.equal(percentile(values, 0.95), 10);
  assert.equal(percentile([7], 0.95), 7);
});

Deno.test("processTree(), treePeakRssMb() and waitGone() work on a real child process", async () => {
  const child = new Deno.Command("sleep", { args: ["60"], stdout: "null", stderr: "null" }).spawn();
  assert.ok((await processTree(Deno.pid)).includes(child.pid));
  assert.ok(await treePeakRssMb(Deno.pid) > 1);
  await waitGone([child.pid], 0);
  assert.equal((await child.status).signal, "SIGKILL");
});
