/**
 * @module
 * Messages for calls that fail before they run, written so the model can fix the call in one try.
 */
import type { z } from "zod";

type Issue = z.ZodError["issues"][number];

const SNIPPET_CHARS = 24;
const VALUE_CHARS = 60;

export function invalidJsonMessage(tool: string, raw: string, reason: string): string {
  const position = /at position (\d+)/.exec(reason);
  const at = position ? Number(position[1]) : raw.length;
  let where: string;
  if (at >= raw.length || /end of JSON/i.test(reason)) {
    where = `; the text ends before the JSON is complete (after ${raw.length} characters)`;
  } else {
    const before = raw.slice(Math.max(0, at - SNIPPET_CHARS), at);
    const after = raw.slice(at, at + SNIPPET_CHARS);
    where = `; it fails here: ${JSON.stringify(before)} <here> ${JSON.stringify(after)}`;
  }
  return `The arguments for "${tool}" are not valid JSON (${reason})${where}. ` +
    `Resend the call with the arguments as one JSON object, e.g. {"name": "value"}`;
}

export interface InvalidArgsDetails {
  issues: readonly Issue[];
  required: readonly string[];
  /** The tool's argument summary, for a call made without its schema in view (through the proxy). */
  schema?: string;
}

export function invalidArgsMessage(tool: string, input: unknown, details: InvalidArgsDetails): string {
  const lines = details.issues.map((issue) => `- ${pathLabel(issue.path)}: ${describeIssue(issue, input)}`);
  const required = details.required.length > 0
    ? details.required.map((name) => `"${name}"`).join(", ")
    : "none";
  return [
    `Invalid arguments for "${tool}":`,
    ...lines,
    `Required arguments: ${required}. Fix the arguments above and call "${tool}" again`,
    ...(details.schema ? [details.schema] : []),
  ].join("\n");
}

function pathLabel(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "the arguments";
  let label = "";
  for (const key of path) {
    if (typeof key === "number") label += `[${key}]`;
    else label += label === "" ? String(key) : `.${String(key)}`;
  }
  return `"${label}"`;
}

function describeIssue(issue: Issue, input: unknown): string {
  if (issue.code === "unrecognized_keys") {
    return `unknown argument${issue.keys.length === 1 ? "" : "s"} ${
      issue.keys.map((k) => `"${k}"`).join(", ")
    }`;
  }
  const received = `received ${describeValue(valueAt(input, issue.path))}`;
  if (issue.code === "invalid_type") return `expected ${issue.expected}, ${received}`;
  if (issue.code === "invalid_value") {
    return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}, ${received}`;
  }
  const message = issue.message.replace(/^Invalid input: /, "");
  return `${message.charAt(0).toLowerCase()}${message.slice(1)}, ${received}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing (the argument is missing)";
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  let text = JSON.stringify(value) ?? String(value);
  if (text.length > VALUE_CHARS) text = `${text.slice(0, VALUE_CHARS)}...`;
  return kind === "null" ? "null" : `${kind} ${text}`;
}
