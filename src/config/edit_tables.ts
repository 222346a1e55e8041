/**
 * @module
 * Adds or removes one `[[array]]` table entry (an MCP server's `[[plugins]]`) of a TOML file in place:
 * an added entry goes at the end, a removed one takes only its own lines (its header, keys, sub-tables
 * and the blank lines after them) and every other byte stays as it was.
 */
import { parse } from "smol-toml";
import { ReasonixError } from "../lib/errors.ts";
import { TomlLocator } from "./_locate.ts";
import { editTomlFile, renderKey, renderValue, type TomlInput } from "./edit.ts";

export { editTomlFile };

export type TableInput = TomlInput | Record<string, string>;

export function appendArrayTable(text: string, key: string, fields: Record<string, TableInput>): string {
  const lines = [`[[${renderKey([key])}]]`];
  for (const [name, value] of Object.entries(fields)) lines.push(`${renderKey([name])} = ${render(value)}`);
  const separator = text === "" ? "" : text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  const edited = text + separator + lines.join("\n") + "\n";
  checked(edited, `Cannot add a [[${key}]] entry`);
  return edited;
}

export function removeArrayTable(text: string, key: string, index: number): string {
  const locator = new TomlLocator(text);
  const own = locator.sections.filter((section) => section.path[0] === key && section.path[1] === index);
  const first = own[0];
  if (first === undefined) {
    throw new ReasonixError("config.invalid", `Cannot remove ${key}[${index}]: it is not a [[${key}]] table`);
  }
  let end = own.at(-1)!.bodyEnd;
  while (end < text.length && /^[ \t]*\r?\n/.test(text.slice(end))) end = text.indexOf("\n", end) + 1;
  let start = first.start;
  // The last entry takes the blank lines that separated it, as `appendArrayTable` added them.
  if (end >= text.length) {
    while (start > 1 && /\n[ \t]*\n$/.test(text.slice(0, start))) {
      start = text.lastIndexOf("\n", start - 2) + 1;
    }
  }
  const edited = text.slice(0, start) + text.slice(end);
  checked(edited, `Cannot remove ${key}[${index}]`);
  return edited;
}

function render(value: TableInput): string {
  if (typeof value !== "object" || Array.isArray(value)) return renderValue(value);
  const pairs = Object.entries(value).map(([name, item]) => `${renderKey([name])} = ${renderValue(item)}`);
  return pairs.length === 0 ? "{}" : `{ ${pairs.join(", ")} }`;
}

function checked(text: string, what: string): void {
  try {
    parse(text);
  } catch (error) {
    throw new ReasonixError("config.invalid", `${what}: the edit would not be valid TOML`, { cause: error });
  }
}
