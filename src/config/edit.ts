/**
 * @module
 * Changes one key of a TOML file in place. Everything else (comments, order, spacing, unknown keys)
 * stays byte for byte: the Go Reasonix rewrote user files into a canonical form and lost all of that.
 */
import { parse } from "smol-toml";
import { ReasonixError } from "../lib/errors.ts";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import { type Entry, type KeyPath, type Section, TomlLocator } from "./_locate.ts";
import { parseToml } from "./load.ts";
import { CONFIG_SPEC, leafFor, parseLeafInput, type Spec } from "./schema.ts";
import type { ResolvedConfig } from "./types.ts";

export type TomlInput = string | number | boolean | string[];

export function setTomlKey(text: string, dottedKey: string, value: TomlInput): string {
  const locator = new TomlLocator(text);
  const path = withIndices(locator, parseDottedKey(dottedKey));
  const rendered = renderValue(value);
  const exact = locator.entry(path);
  let edited: string;
  if (exact) {
    if (exact.kind !== "value" || exact.valueShape === "{") throw cannotSet(dottedKey, "it is a table");
    edited = text.slice(0, exact.valueStart) + rendered + text.slice(exact.valueEnd);
  } else {
    edited = insertKey(locator, { path, rendered, dottedKey });
  }
  try {
    parse(edited);
  } catch (error) {
    throw new ReasonixError("config.invalid", `Cannot set "${dottedKey}": the edit would not be valid TOML`, {
      cause: error,
    });
  }
  return edited;
}

/** Appends one `[[name]]` table with `fields` at the end of the text; everything before stays as it was. */
export function appendTomlTable(text: string, name: string, fields: Record<string, TomlInput>): string {
  const body = Object.entries(fields).map(([key, value]) => `${renderKey([key])} = ${renderValue(value)}\n`);
  const gap = text === "" ? "" : text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  const edited = `${text}${gap}[[${renderKey([name])}]]\n${body.join("")}`;
  try {
    parse(edited);
  } catch (error) {
    throw new ReasonixError(
      "config.invalid",
      `Cannot add a [[${name}]] table: the edit would not be valid TOML`,
      {
        cause: error,
      },
    );
  }
  return edited;
}

export async function setConfigKey(file: string, dottedKey: string, rawValue: string): Promise<void> {
  const segments = parseDottedKey(dottedKey);
  const value = parseLeafInput(dottedKey, leafFor(segments), rawValue);
  await editTomlFile(file, (text) => setTomlKey(text, dottedKey, value));
}

/** Reads `file` (absent: empty), applies `edit` to its text and writes the result atomically. */
export async function editTomlFile(file: string, edit: (text: string) => string): Promise<void> {
  let text = "";
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  parseToml(text, file);
  await writeFileAtomic(file, edit(text), { mkdirs: true });
}

/** A resolved value by its TOML key: `tools.bash_timeout_seconds`, `providers.<name>.base_url`. */
export function getConfigValue(config: ResolvedConfig, dottedKey: string): unknown {
  const segments = parseDottedKey(dottedKey);
  const [head, ...rest] = segments;
  if (head === "providers") {
    if (rest.length === 0) return config.providers;
    const provider = config.providers.find((candidate) => candidate.name === rest[0]);
    return rest.length === 1 ? provider : walk(provider, rest.slice(1));
  }
  let spec: Spec | undefined = CONFIG_SPEC;
  for (const segment of segments) {
    spec = spec?.kind === "table"
      ? (Object.hasOwn(spec.fields, segment) ? spec.fields[segment] : spec.each)
      : undefined;
  }
  if (spec === undefined || spec.kind === "ignored") {
    throw new ReasonixError("config.unknown_key", `Cannot read "${dottedKey}": unknown key`);
  }
  if (spec.kind === "unused" || dottedKey === "agent.system_prompt_file") return undefined;
  if (dottedKey === "billing.display_currency") return config.billing.currency;
  if (head === "model_overrides" && rest.length > 0) {
    return walk(config.modelOverrides[rest[0]!], rest.slice(1));
  }
  return walk(config, segments);
}

function walk(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[camelCase(segment)];
  }
  return current;
}

function camelCase(key: string): string {
  return key.replace(/_([a-z])/g, (_, char: string) => char.toUpperCase());
}

/** Splits `a.b."c.d"` into segments; quoted segments may contain dots. */
export function parseDottedKey(dottedKey: string): string[] {
  const segments: string[] = [];
  const pattern = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(\.|$)/y;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < dottedKey.length && (match = pattern.exec(dottedKey)) !== null) {
    segments.push(match[1] !== undefined ? JSON.parse(`"${match[1]}"`) : match[2] ?? match[3]!);
    if (match[4] === "") break;
  }
  if (segments.length === 0 || pattern.lastIndex !== dottedKey.length) {
    throw new ReasonixError("config.invalid", `Cannot read key "${dottedKey}": not a valid dotted key`);
  }
  return segments;
}

function withIndices(locator: TomlLocator, segments: string[]): KeyPath {
  const path: (string | number)[] = [];
  for (const segment of segments) {
    const index = Number(segment);
    const parent = locator.entry(path);
    const isArray = parent?.valueShape === "[";
    path.push(isArray && /^\d+$/.test(segment) ? index : segment);
  }
  return path;
}

interface Insert {
  path: KeyPath;
  rendered: string;
  dottedKey: string;
}

function insertKey(locator: TomlLocator, insert: Insert): string {
  const { path, dottedKey } = insert;
  for (let depth = path.length - 1; depth > 0; depth--) {
    const entry = locator.entry(path.slice(0, depth));
    if (entry === undefined) continue;
    if (entry.kind === "value" && entry.valueShape !== "{") {
      throw cannotSet(dottedKey, `"${path.slice(0, depth).join(".")}" is not a table`);
    }
    if (entry.valueShape === "[") throw cannotSet(dottedKey, "no such array item");
    if (entry.kind === "value") return intoInline(locator, entry, { ...insert, path: path.slice(depth) });
    if (entry.section === -1) return intoEnclosingInline(locator, { ...insert, depth });
    const section = locator.sections[entry.section]!;
    return intoSection(locator, section, { ...insert, path: path.slice(section.path.length) });
  }
  if (path.some((segment) => typeof segment === "number")) throw cannotSet(dottedKey, "no such array item");
  if (path.length === 1) return intoSection(locator, locator.sections[0]!, insert);
  return newTable(locator, insert);
}

function intoEnclosingInline(locator: TomlLocator, insert: Insert & { depth: number }): string {
  for (let depth = insert.depth - 1; depth > 0; depth--) {
    const entry = locator.entry(insert.path.slice(0, depth));
    if (entry?.kind === "value" && entry.valueShape === "{") {
      return intoInline(locator, entry, { ...insert, path: insert.path.slice(depth) });
    }
  }
  throw cannotSet(insert.dottedKey, "cannot find the table that holds it");
}

function intoInline(locator: TomlLocator, entry: Entry, insert: Insert): string {
  const text = locator.text;
  const close = entry.valueEnd - 1;
  const inner = text.slice(entry.valueStart + 1, close);
  const pair = `${renderKey(insert.path)} = ${insert.rendered}`;
  if (inner.trim() === "") {
    return text.slice(0, entry.valueStart) + `{ ${pair} }` + text.slice(entry.valueEnd);
  }
  const lastChar = entry.valueStart + 1 + inner.trimEnd().length;
  const separator = text[lastChar - 1] === "," ? " " : ", ";
  return text.slice(0, lastChar) + separator + pair + text.slice(lastChar);
}

function intoSection(locator: TomlLocator, section: Section, insert: Insert): string {
  const text = locator.text;
  const line = `${section.indent}${renderKey(insert.path)} = ${insert.rendered}\n`;
  let at = section.bodyEnd;
  let suffix = "";
  if (section === locator.sections[0] && at === 0) {
    const next = locator.sections[1];
    at = next === undefined ? text.length : commentBlockStart(locator, next.start);
    if (next !== undefined) suffix = "\n";
  }
  const prefix = at > 0 && text[at - 1] !== "\n" ? "\n" : "";
  return text.slice(0, at) + prefix + line + suffix + text.slice(at);
}

function newTable(locator: TomlLocator, insert: Insert): string {
  const text = locator.text;
  const header = `[${renderKey(insert.path.slice(0, -1))}]\n${
    renderKey(insert.path.slice(-1))
  } = ${insert.rendered}\n`;
  const related = locator.sections.filter((section) => section.path[0] === insert.path[0]).at(-1);
  const at = related ? related.bodyEnd : text.length;
  const before = at === 0 ? "" : text[at - 1] === "\n" ? "\n" : "\n\n";
  const after = at < text.length && text[at] !== "\n" ? "\n" : "";
  return text.slice(0, at) + before + header + after + text.slice(at);
}

/** Comments directly above a header belong to it, so a new root key goes above them. */
function commentBlockStart(locator: TomlLocator, headerStart: number): number {
  let at = headerStart;
  while (at > 0) {
    const previous = locator.lineStart(at - 1);
    if (!locator.text.slice(previous, at).trimStart().startsWith("#")) break;
    at = previous;
  }
  return at;
}

export function renderKey(path: KeyPath): string {
  return path.map((segment) => {
    const text = String(segment);
    return /^[A-Za-z0-9_-]+$/.test(text) ? text : JSON.stringify(text);
  }).join(".");
}

export function renderValue(value: TomlInput): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`Cannot write ${value} to TOML`);
    return String(value);
  }
  return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
}

function cannotSet(key: string, reason: string): ReasonixError {
  return new ReasonixError("config.invalid", `Cannot set "${key}": ${reason}`);
}
