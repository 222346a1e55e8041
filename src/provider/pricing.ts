/**
 * @module
 * Prices per 1M tokens, DeepSeek's peak/off-peak schedule, and the cost of a call's usage.
 */
import type { Price } from "../config/types.ts";
import type { Usage } from "./provider.ts";

const FLASH: Price = Object.freeze({ cacheHit: 0.04, input: 2, output: 8, currency: "CNY" });
const PRO: Price = Object.freeze({ cacheHit: 0.3, input: 9, output: 27, currency: "CNY" });

const BUILTIN_PRICES: ReadonlyMap<string, Price> = new Map([
  ["deepseek-flash", FLASH],
  ["deepseek-v4-flash", FLASH],
  ["deepseek-chat", FLASH],
  ["deepseek-reasoner", FLASH],
  ["deepseek-v4-pro", PRO],
]);

// Identity, not value: a configured price equal to a built-in one still applies as given.
const SCHEDULED: ReadonlySet<Price> = new Set([FLASH, PRO]);

const BEIJING_OFFSET_MS = 8 * 60 * 60 * 1000;
const PEAK_WINDOWS: readonly [number, number][] = [[9 * 60, 12 * 60], [14 * 60, 18 * 60]];

export function priceFor(model: string, configured?: Price): Price | undefined {
  return configured ?? BUILTIN_PRICES.get(model);
}

/** Beijing time (UTC+8, no daylight saving) Mon–Fri 09:00–12:00 and 14:00–18:00; public holidays are not modelled. */
export function isPeak(at: Date): boolean {
  const beijing = new Date(at.getTime() + BEIJING_OFFSET_MS);
  const day = beijing.getUTCDay();
  if (day === 0 || day === 6) return false;
  const minute = beijing.getUTCHours() * 60 + beijing.getUTCMinutes();
  return PEAK_WINDOWS.some(([start, end]) => minute >= start && minute < end);
}

export function costOf(usage: Usage, price: Price, options: { at?: Date } = {}): number {
  const full = (usage.cacheHitTokens * price.cacheHit + usage.cacheMissTokens * price.input +
    usage.completionTokens * price.output) / 1_000_000;
  if (!SCHEDULED.has(price)) return full;
  return isPeak(options.at ?? new Date()) ? full : full / 2;
}

export interface Receipt {
  usage: Usage;
  /** Cache hits over all prompt tokens, 0 when there were none. */
  hitRatio: number;
  cost: number | null;
  currency: "CNY" | "USD" | null;
}

export function receiptFor(usage: Usage, price: Price | undefined, at?: Date): Receipt {
  const prompt = usage.cacheHitTokens + usage.cacheMissTokens;
  const hitRatio = prompt > 0 ? usage.cacheHitTokens / prompt : 0;
  if (price === undefined) return { usage, hitRatio, cost: null, currency: null };
  return { usage, hitRatio, cost: costOf(usage, price, { at }), currency: price.currency };
}
