/**
 * @module
 * Small text formatters shared by the cards: durations, counts, the key argument of a tool call, and
 * text others produced made safe for the terminal.
 */
import { escapeControls, stripControls } from "../../../lib/terminal_text.ts";

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m${Math.round((ms % 60_000) / 1000)}s`;
}

/** `12,345`, as en-US groups digits, without `toLocaleString` (an ICU formatter per call, 40 ms the first time). */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Argument names that best say what a call is about, in order of preference. */
const KEY_ARGUMENTS = [
  "path",
  "file_path",
  "file",
  "command",
  "pattern",
  "query",
  "url",
  "name",
  "symbol",
  "description",
  "prompt",
  // use_capability's own cards (inspect); a proxied call is shown as the tool it runs.
  "capability_id",
];

/** The argument a card shows for a call, its controls as visible marks. */
export function keyArgument(argumentsJson: string): string {
  return reveal(keyValue(argumentsJson));
}

function keyValue(argumentsJson: string): string {
  let args: unknown;
  try {
    args = JSON.parse(argumentsJson);
  } catch {
    return oneLine(argumentsJson);
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) return "";
  const record = args as Record<string, unknown>;
  const name = KEY_ARGUMENTS.find((key) => typeof record[key] === "string" && record[key] !== "");
  if (name) return oneLine(record[name] as string);
  const first = Object.values(record).find((value) => typeof value === "string" && value !== "");
  return typeof first === "string" ? oneLine(first) : "";
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ⏎ ").trim();
}

/** Cuts a single line to `width` display columns, marking the cut with "…". */
export function clip(text: string, width: number, measure: (text: string) => number): string {
  if (measure(text) <= width) return text;
  let out = "";
  for (const char of text) {
    if (measure(out + char) > width - 1) break;
    out += char;
  }
  return out + "…";
}

/** Prose from the model or a tool: escape sequences and controls removed, tabs as spaces (Ink counts a tab as nothing). */
export function sanitize(text: string): string {
  return stripControls(text).replace(/\t/g, "    ");
}

/** A command, path or diff line a human must read exactly: controls shown as marks (`␛`), tabs as spaces. */
export function reveal(text: string): string {
  return escapeControls(text).replace(/\t/g, "    ");
}
