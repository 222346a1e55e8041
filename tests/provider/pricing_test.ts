import assert from "node:assert/strict";
import type { Price } from "../../src/config/types.ts";
import { costOf, isPeak, priceFor, receiptFor } from "../../src/provider/pricing.ts";
import type { Usage } from "../../src/provider/provider.ts";

// 2026-03-02 is a Monday. Beijing = UTC+8.
const MONDAY_10_BEIJING = new Date("2026-03-02T02:00:00Z");
const MONDAY_13_BEIJING = new Date("2026-03-02T05:00:00Z");

const usage: Usage = {
  promptTokens: 1_000_000,
  completionTokens: 1_000_000,
  cacheHitTokens: 600_000,
  cacheMissTokens: 400_000,
  reasoningTokens: 0,
};

function close(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `expected ${expected}, got ${actual}`);
}

Deno.test("isPeak() follows Beijing time windows on weekdays", () => {
  const cases: [string, boolean][] = [
    ["2026-03-02T00:59:59Z", false], // Mon 08:59:59
    ["2026-03-02T01:00:00Z", true], // Mon 09:00
    ["2026-03-02T03:59:59Z", true], // Mon 11:59:59
    ["2026-03-02T04:00:00Z", false], // Mon 12:00
    ["2026-03-02T06:00:00Z", true], // Mon 14:00
    ["2026-03-02T09:59:00Z", true], // Mon 17:59
    ["2026-03-02T10:00:00Z", false], // Mon 18:00
    ["2026-03-06T09:30:00Z", true], // Fri 17:30
    ["2026-03-07T02:00:00Z", false], // Sat 10:00
    ["2026-03-08T02:00:00Z", false], // Sun 10:00
    ["2026-03-01T17:30:00Z", false], // Mon 01:30 Beijing, still Sunday in UTC
    ["2026-03-06T17:00:00Z", false], // Sat 01:00 Beijing, Friday in UTC
  ];
  assert.deepEqual(cases.map(([at]) => [at, isPeak(new Date(at))]), cases);
});

Deno.test("priceFor() prefers the configured price, else the built-in table", () => {
  const configured: Price = { cacheHit: 1, input: 2, output: 3, currency: "USD" };
  assert.equal(priceFor("deepseek-flash", configured), configured);
  assert.deepEqual(priceFor("deepseek-flash"), { cacheHit: 0.04, input: 2, output: 8, currency: "CNY" });
  assert.deepEqual(priceFor("deepseek-v4-pro"), { cacheHit: 0.3, input: 9, output: 27, currency: "CNY" });
  assert.equal(priceFor("my-local-model"), undefined);
});

Deno.test("costOf() charges built-in prices in full at peak and half off-peak", () => {
  const flash = priceFor("deepseek-flash")!;
  const peak = 0.6 * 0.04 + 0.4 * 2 + 8;
  close(costOf(usage, flash, { at: MONDAY_10_BEIJING }), peak);
  close(costOf(usage, flash, { at: MONDAY_13_BEIJING }), peak / 2);
  const pro = priceFor("deepseek-v4-pro")!;
  close(costOf(usage, pro, { at: MONDAY_10_BEIJING }), 0.6 * 0.3 + 0.4 * 9 + 27);
});

Deno.test("costOf() applies a configured price as given at any hour", () => {
  const configured: Price = { cacheHit: 0.04, input: 2, output: 8, currency: "CNY" };
  const peak = costOf(usage, configured, { at: MONDAY_10_BEIJING });
  close(peak, 0.6 * 0.04 + 0.4 * 2 + 8);
  close(costOf(usage, configured, { at: MONDAY_13_BEIJING }), peak);
});

Deno.test("receiptFor() reports hit ratio, cost and currency", () => {
  const flash = priceFor("deepseek-flash")!;
  assert.deepEqual(receiptFor(usage, flash, MONDAY_13_BEIJING), {
    usage,
    hitRatio: 0.6,
    cost: costOf(usage, flash, { at: MONDAY_13_BEIJING }),
    currency: "CNY",
  });
});

Deno.test("receiptFor() without a price has no cost, and no prompt means a zero hit ratio", () => {
  const empty: Usage = { ...usage, promptTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0 };
  assert.deepEqual(receiptFor(empty, undefined), { usage: empty, hitRatio: 0, cost: null, currency: null });
});
