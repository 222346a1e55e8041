/**
 * @module
 * Effort names as people type them, normalised to the five the provider layer understands.
 */
import { ReasonixError } from "../lib/errors.ts";
import type { Effort } from "./provider.ts";

const EFFORTS: Readonly<Record<string, Effort>> = {
  auto: "auto",
  disabled: "disabled",
  low: "low",
  high: "high",
  max: "max",
  minimal: "low",
  medium: "high",
  xhigh: "high",
  ultra: "max",
};

export const ACCEPTED_EFFORTS: readonly string[] = Object.keys(EFFORTS);

export function normalizeEffort(value: string): Effort {
  const key = value.trim().toLowerCase();
  const effort = Object.hasOwn(EFFORTS, key) ? EFFORTS[key] : undefined;
  if (effort !== undefined) return effort;
  const accepted = ACCEPTED_EFFORTS.map((name) => `"${name}"`).join(", ");
  throw new ReasonixError("config.effort", `Cannot use effort "${value}": expected one of ${accepted}`);
}
