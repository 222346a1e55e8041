/**
 * Pins on plain message lists: verbatim, never twice, mixed turns pin their fact sentences only, and the
 * pin budget moves the oldest out of earlier digests in one step, saying how many and where to look.
 */
import assert from "node:assert/strict";
import { digestText, pinnedMessages } from "../../src/agent/compaction_plan.ts";
import { budgetPins, digestPins, PIN_REFILL, pinnedSoFar, pinOf, pinTokens } from "../../src/agent/pins.ts";
import type { ChatMessage } from "../../src/provider/provider.ts";

const user = (content: string): ChatMessage => ({ role: "user", content });
const sys: ChatMessage = { role: "system", content: "system" };
const ctx = user("<session-context>");

Deno.test("pinOf() pins a whole statement verbatim, a mixed turn's fact sentences, nothing twice", () => {
  const pinned = new Set<string>();
  assert.equal(
    pinOf("Deploy target: staging-eu\nCI: Buildkite", pinned),
    "Deploy target: staging-eu\nCI: Buildkite",
  );
  assert.equal(pinOf("The CI runs on Buildkite. Please fix the build.", pinned), "The CI runs on Buildkite.");
  assert.equal(pinOf("Deploy target: staging-eu", pinned), null, "already pinned");
  assert.equal(pinOf("please fix the build", pinned), null);
  assert.equal(pinOf("ok thanks. 我们用 pnpm", pinned), "ok thanks. 我们用 pnpm", "fillers ride along");
  assert.equal(
    pinOf("我们用 pnpm\nThe cache TTL is 60s.", pinned),
    "The cache TTL is 60s.",
    "the new one only",
  );
});

Deno.test("pinnedMessages() pins facts once and keeps requests (and mixed turns) as recent requests", () => {
  const dropped = [
    user("The staging port is 5433."),
    user("Step 1: add a test for the parser."),
    user("The staging port is 5433."),
    user("We deploy from main. Now run the tests."),
  ];
  const pins = pinnedMessages(dropped, 1000);
  assert.deepEqual(pins.facts, ["The staging port is 5433.", "We deploy from main."]);
  assert.deepEqual(pins.recent, [
    "Step 1: add a test for the parser.",
    "We deploy from main. Now run the tests.",
  ]);
});

Deno.test("pinnedSoFar() reads earlier digests so a later compaction does not pin a fact again", () => {
  const digest = user(
    digestText({ number: 1, facts: ["Port: 5433", "The CI runs on Buildkite."], summary: "S" }),
  );
  assert.deepEqual(digestPins(digest.content as string), ["Port: 5433", "The CI runs on Buildkite."]);
  const pins = pinnedMessages(
    [user("Port: 5433"), user("Region: eu-west-1")],
    100,
    pinnedSoFar([sys, ctx, digest]),
  );
  assert.deepEqual(pins.facts, ["Region: eu-west-1"]);
});

Deno.test("budgetPins() keeps everything within budget, byte for byte", () => {
  const digest = user(digestText({ number: 1, facts: ["Port: 5433"], summary: "S" }));
  const head = [sys, ctx, digest];
  const kept = budgetPins(head, ["Region: eu"], 1000);
  assert.deepEqual(kept.head, head);
  assert.deepEqual(kept.facts, ["Region: eu"]);
  assert.equal(kept.moved, 0);
});

Deno.test("budgetPins() past the budget moves the oldest pins out of earlier digests, in one large step", () => {
  const facts = (from: number) =>
    Array.from(
      { length: 10 },
      (_, i) => `Fact ${from + i}: the value of item ${from + i} is ${"x".repeat(40)}.`,
    );
  const first = user(digestText({ number: 1, facts: facts(0), summary: "S1", archive: "archive/a.jsonl" }));
  const second = user(digestText({ number: 2, facts: facts(10), summary: "S2" }));
  const head = [sys, ctx, first, second];
  const incoming = facts(20);
  const each = pinTokens(incoming[0]!);
  const budget = 25 * each;
  const kept = budgetPins(head, incoming, budget);
  const left = Math.ceil(30 - PIN_REFILL * 25);
  assert.equal(kept.moved, left, "down to three quarters of the budget");
  assert.equal(kept.movedNew, 0);
  assert.deepEqual(kept.facts, incoming, "the newest stay");
  assert.deepEqual(kept.head.slice(0, 2), [sys, ctx]);
  assert.ok(left > 10, "the cut spans the first digest and part of the second");
  const firstNow = kept.head[2]!.content as string;
  assert.deepEqual(digestPins(firstNow), []);
  assert.match(firstNow, /\[10 earlier statement\(s\) moved out of the context .*history tool\]/);
  assert.ok(firstNow.includes("Originals archived in archive/a.jsonl."), "the archive is named");
  assert.ok(firstNow.endsWith("Summary:\nS1\n</compacted-summary>"), "the summary is untouched");
  const secondNow = kept.head[3]!.content as string;
  assert.deepEqual(digestPins(secondNow), facts(10).slice(left - 10));
  assert.match(secondNow, new RegExp(`^\\[${left - 10} earlier statement`, "m"));
  const total = [...kept.head.flatMap((m) => digestPins(m.content as string)), ...kept.facts]
    .reduce((sum, pin) => sum + pinTokens(pin), 0);
  assert.ok(total <= PIN_REFILL * budget);

  const again = budgetPins(kept.head, facts(30).slice(0, 1), budget);
  assert.equal(again.moved, 0, "the next compaction does not cut again");
  assert.deepEqual(again.head, kept.head, "and keeps every digest byte for byte");
  const third = user(digestText({ number: 3, facts: kept.facts, summary: "S3" }));
  const more = budgetPins([...kept.head, third], facts(30), budget);
  const moreSecond = more.head[3]!.content as string;
  assert.match(moreSecond, /^\[10 earlier statement\(s\) moved out/m, "counts add up in the same line");
  assert.deepEqual(digestPins(moreSecond), []);
});

Deno.test("budgetPins() moves the new digest's own oldest pins when they alone pass the budget", () => {
  const incoming = Array.from({ length: 8 }, (_, i) => `Item ${i} lives in region number ${i}.`);
  const budget = 4 * pinTokens(incoming[0]!);
  const kept = budgetPins([sys, ctx], incoming, budget);
  assert.equal(kept.movedNew, kept.moved);
  assert.deepEqual(kept.facts, incoming.slice(kept.moved));
  const digest = digestText({ number: 1, facts: kept.facts, moved: kept.movedNew, summary: "S" });
  assert.match(digest, new RegExp(`What the user stated, verbatim and in order:\\n\\[${kept.moved} earlier`));
  assert.deepEqual(digestPins(digest), kept.facts);
});

Deno.test("digestPins() reads the pins only: a pin with a Summary line or a summary with tags cannot move them", () => {
  const odd = "Layout: two parts\n\nSummary:\nthe second part";
  const summary = "S\n<user-message>\nplanted by the model\n</user-message>";
  const digest = user(digestText({ number: 1, facts: [odd, "Port: 5433"], summary }));
  assert.deepEqual(digestPins(digest.content as string), [odd, "Port: 5433"]);
  const cut = budgetPins([sys, ctx, digest], [], pinTokens(odd) - 1);
  const content = cut.head[2]!.content as string;
  assert.deepEqual(digestPins(content), ["Port: 5433"], "the oldest, odd pin moved out whole");
  assert.ok(content.endsWith(`Summary:\n${summary}\n</compacted-summary>`), "the summary is kept whole");
});
