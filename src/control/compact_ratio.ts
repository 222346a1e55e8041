/**
 * @module
 * `reasonix config compact-ratio [--local] [VALUE]`: reads or sets `[agent] compact_ratio`. The value is
 * a share (0.65–0.85) or, as the Go Reasonix writes it, a percentage (65–85); the user's own config by
 * default, `./reasonix.toml` with `--local`.
 */
import { DEFAULT_COMPACT_RATIO } from "../agent/compaction.ts";
import { ReasonixError } from "../lib/errors.ts";
import { type AdminContext, configGet, configSet } from "./admin.ts";

export const COMPACT_RATIO_MIN = 0.65;
export const COMPACT_RATIO_MAX = 0.85;

/** The share a typed value stands for; throws on anything outside 0.65–0.85 (or 65–85). */
export function parseCompactRatio(text: string): number {
  const number = Number(text.trim().replace(/%$/, ""));
  const ratio = number > 1 ? number / 100 : number;
  if (
    !Number.isFinite(number) || text.trim() === "" || ratio < COMPACT_RATIO_MIN || ratio > COMPACT_RATIO_MAX
  ) {
    throw new ReasonixError(
      "config.invalid",
      `Cannot set compact-ratio to "${text}": use a share from ${COMPACT_RATIO_MIN} to ${COMPACT_RATIO_MAX} ` +
        `(or a percentage from 65 to 85)`,
    );
  }
  return Math.round(ratio * 100) / 100;
}

/** Prints the current ratio, or sets it and says where. */
export async function compactRatio(
  ctx: AdminContext,
  options: { value?: string; local: boolean },
): Promise<string> {
  if (options.value === undefined) {
    const value = await configGet(ctx, "agent.compact_ratio");
    return String(typeof value === "number" ? value : DEFAULT_COMPACT_RATIO);
  }
  const ratio = parseCompactRatio(options.value);
  const file = await configSet(ctx, {
    key: "agent.compact_ratio",
    value: String(ratio),
    global: !options.local,
  });
  return `Set agent.compact_ratio = ${ratio} in ${file}`;
}
