/**
 * @module
 * What the completion menu offers for the text before the cursor: slash commands from the one
 * registry (with usage and summary), a command's argument choices, or workspace paths for `@path`.
 * Pure: the input box renders the items and applies the chosen one.
 */
import { type CommandRegistry, escapePath } from "../../../control/mod.ts";
import { fuzzyRank, fuzzyScore } from "./fuzzy.ts";
import { applyCompletion, completionTokenAt } from "./mention.ts";

export const MAX_ITEMS = 50;

export interface MenuItem {
  /** What replaces the typed token. */
  value: string;
  label: string;
  detail: string;
}

export interface Completion {
  kind: "command" | "argument" | "mention";
  /** What was typed for the token so far. */
  query: string;
  /** UTF-16 index where the replaced part starts (the sigil for commands and mentions). */
  start: number;
  items: MenuItem[];
  /** Identifies the token, so a selection survives re-renders but not a new query. */
  key: string;
}

export interface CompletionSources {
  commands?: CommandRegistry;
  files?: readonly string[];
}

/** The completion for `text` with the cursor at UTF-16 index `cursor`; null when nothing applies. */
export function completionAt(text: string, cursor: number, sources: CompletionSources): Completion | null {
  const argument = /^\/(\S+)\s+(\S*)$/.exec(text.slice(0, cursor));
  if (argument && sources.commands) {
    return argumentCompletion(sources.commands, argument[1]!, argument[2]!, cursor);
  }
  const token = completionTokenAt(text, cursor);
  if (!token) return null;
  const items = token.kind === "command"
    ? commandItems(sources.commands, token.query)
    : fuzzyRank(token.query, sources.files ?? [], MAX_ITEMS).map((path) => ({
      value: path,
      label: path,
      detail: "",
    }));
  return finish({ kind: token.kind, query: token.query, start: token.start, items });
}

function commandItems(commands: CommandRegistry | undefined, query: string): MenuItem[] {
  if (!commands) return [];
  const names = commands.list().flatMap((command) => [command.name, ...command.aliases]);
  const seen = new Set<string>();
  const items: MenuItem[] = [];
  for (const matched of fuzzyRank(query, names, MAX_ITEMS)) {
    const command = commands.find(matched)!;
    if (seen.has(command.name)) continue;
    seen.add(command.name);
    // An alias only shows when the command's own name does not match too.
    const name = fuzzyScore(query, command.name) === undefined ? matched : command.name;
    const label = name === command.name ? command.usage : `/${name} → ${command.usage}`;
    items.push({ value: name, label, detail: command.summary });
  }
  return items;
}

function argumentCompletion(
  commands: CommandRegistry,
  name: string,
  query: string,
  cursor: number,
): Completion | null {
  const command = commands.find(name);
  if (!command?.argumentChoices?.length) return null;
  const items = fuzzyRank(query, command.argumentChoices, MAX_ITEMS).map((choice) => ({
    value: choice,
    label: choice,
    detail: command.usage,
  }));
  return finish({ kind: "argument", query, start: cursor - query.length, items });
}

function finish(completion: Omit<Completion, "key">): Completion | null {
  if (completion.items.length === 0) return null;
  return { ...completion, key: `${completion.kind}:${completion.start}:${completion.query}` };
}

/** Enter completes only when something was typed and the selection would change it. */
export function enterCompletes(completion: Completion, index: number): boolean {
  const item = completion.items[index];
  return completion.query !== "" && item !== undefined && item.value !== completion.query;
}

/** The text and cursor (UTF-16) after choosing item `index`. */
export function applyItem(
  text: string,
  cursor: number,
  completion: Completion,
  index: number,
): { text: string; cursor: number } {
  const value = completion.items[index]?.value ?? "";
  if (completion.kind === "argument") {
    const inserted = `${value} `;
    return {
      text: text.slice(0, completion.start) + inserted + text.slice(cursor),
      cursor: completion.start + inserted.length,
    };
  }
  const token = { kind: completion.kind, query: completion.query, start: completion.start };
  return applyCompletion(text, cursor, token, completion.kind === "mention" ? escapePath(value) : value);
}
