/**
 * @module
 * Parsers for numeric option values (commander's argParser). A bad value is a usage error that names
 * the option and repeats what was given; the hint is added by the error policy (report_error.ts).
 */
import { ReasonixError } from "../../lib/errors.ts";

/** `--max-steps 0` and up: digits only, so "", "1.5", "-1", "1e3" and " 5" are refused. */
export function wholeNumber(flag: string, meaning = ""): (value: string) => number {
  return (value) => parseWhole(flag, value, 0, `a whole number, 0 or more${meaning}`);
}

/** `--turn 1` and up. */
export function positiveNumber(flag: string): (value: string) => number {
  return (value) => parseWhole(flag, value, 1, "a positive integer");
}

function parseWhole(flag: string, value: string, min: number, what: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new ReasonixError("usage.invalid_value", `${flag} must be ${what}, got ${JSON.stringify(value)}`);
  }
  return n;
}
