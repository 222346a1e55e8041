/**
 * @module
 * Configuration errors carry the place they came from, so every message reads `<file>:<line>:<col>: ...`.
 */
import { ReasonixError, type ReasonixErrorOptions } from "../lib/errors.ts";
import type { ConfigWarning } from "./types.ts";

export type ConfigErrorCode = "config.parse" | "config.type" | "config.invalid";

export interface ConfigErrorOptions extends ReasonixErrorOptions {
  file: string;
  line: number;
  column: number;
  key?: string;
}

export class ConfigError extends ReasonixError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly key: string | undefined;

  constructor(code: ConfigErrorCode, detail: string, options: ConfigErrorOptions) {
    super(code, `${options.file}:${options.line}:${options.column}: ${detail}`, options);
    this.name = "ConfigError";
    this.file = options.file;
    this.line = options.line;
    this.column = options.column;
    this.key = options.key;
  }
}

export function formatWarning(warning: ConfigWarning): string {
  return `${warning.file}:${warning.line}:${warning.column}: ${warning.message}`;
}

/** How a TOML value reads in a message: strings quoted, tables and arrays by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date || (typeof value === "object" && value !== null && "toISOString" in value)) {
    return "a date";
  }
  if (typeof value === "object" && value !== null) return "a table";
  return String(value);
}
