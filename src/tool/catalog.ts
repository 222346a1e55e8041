/**
 * @module
 * The catalogue `use_capability` answers from: every proxied capability, sorted by id, with a version
 * derived from its content alone. The same registry always yields the same bytes, whatever the process,
 * so a `list` result that stays in the history never breaks the prefix cache.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../lib/canonical_json.ts";
import type { ToolRegistry } from "./registry.ts";

export const TOOL_CAPABILITY_PREFIX = "tool:";

export interface CapabilityEntry {
  id: string;
  kind: "tool" | "skill";
  name: string;
  status: "available";
  read_only: boolean;
  /** The tool's first sentence: enough to choose, not to call. */
  description: string;
}

export interface Catalog {
  version: string;
  entries: readonly CapabilityEntry[];
}

const SHORT_DESCRIPTION_CHARS = 160;

export function buildCatalog(registry: ToolRegistry): Catalog {
  const tools = registry.proxiedNames().map((name): CapabilityEntry => {
    const spec = registry.get(name)!;
    return {
      id: `${TOOL_CAPABILITY_PREFIX}${name}`,
      kind: "tool",
      name,
      status: "available",
      read_only: spec.readOnly,
      description: firstSentence(spec.description),
    };
  });
  const skills = registry.listed().map((entry): CapabilityEntry => ({
    ...entry,
    status: "available",
    description: firstSentence(entry.description),
  }));
  const entries = [...tools, ...skills].sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  // The version covers the full schemas too: a changed argument must not hide behind an unchanged list.
  const content = entries.map((entry) =>
    `${canonicalJson(entry)}\n${entry.kind === "tool" ? registry.toolJson(entry.name) : ""}`
  );
  const version = createHash("sha256").update(content.join("\n")).digest("hex").slice(0, 12);
  return { version, entries };
}

/** The tool name a capability id stands for, or null when it names no tool. */
export function toolNameOf(capabilityId: string): string | null {
  if (!capabilityId.startsWith(TOOL_CAPABILITY_PREFIX)) return null;
  const name = capabilityId.slice(TOOL_CAPABILITY_PREFIX.length);
  return name === "" ? null : name;
}

/** Top-level argument names in schema order, and the required ones (a skill takes `arguments`). */
export function argumentsOf(
  registry: ToolRegistry,
  name: string,
  kind: CapabilityEntry["kind"] = "tool",
): { names: string[]; required: readonly string[] } {
  if (kind === "skill") return { names: ["arguments"], required: [] };
  const properties = registry.parametersOf(name)?.properties;
  const names = properties && typeof properties === "object" ? Object.keys(properties) : [];
  return { names, required: registry.requiredArgs(name) };
}

/** `grep(pattern*, path)`: a tool's call shape in one line, required arguments first and starred. */
export function callShape(registry: ToolRegistry, name: string): string {
  const { names, required } = argumentsOf(registry, name);
  const optional = names.filter((arg) => !required.includes(arg));
  return `${name}(${[...required.map((arg) => `${arg}*`), ...optional].join(", ")})`;
}

/** Entries matching the words of `query`, best first (name hits weigh more), ties by id. */
export function searchCatalog(catalog: Catalog, query: string, limit: number): CapabilityEntry[] {
  const words = query.toLowerCase().split(/[^a-z0-9_]+/).filter((word) => word.length > 1);
  const scored = catalog.entries.map((entry) => {
    const name = entry.name.toLowerCase();
    const description = entry.description.toLowerCase();
    let score = 0;
    for (const word of words) {
      if (name.includes(word)) score += 3;
      if (description.includes(word)) score += 1;
    }
    return { entry, score };
  });
  return scored.filter((item) => item.score > 0)
    .sort((a, b) => b.score - a.score || (a.entry.id < b.entry.id ? -1 : 1))
    .slice(0, limit)
    .map((item) => item.entry);
}

function firstSentence(text: string): string {
  const line = text.split("\n")[0]!.trim();
  const end = /[.!?](\s|$)/.exec(line);
  const sentence = end ? line.slice(0, end.index + 1) : line;
  return sentence.length <= SHORT_DESCRIPTION_CHARS
    ? sentence
    : `${sentence.slice(0, SHORT_DESCRIPTION_CHARS - 3)}...`;
}
