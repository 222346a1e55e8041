/**
 * @module
 * One remembered fact as a frontmatter Markdown file: an immutable id, an increasing revision,
 * timestamps, a type and a scope, then the body. Values are written as JSON strings so no text the
 * model chose can start a new frontmatter key or end the block.
 */

export const FACT_TYPES = ["project", "reference", "user", "feedback"] as const;
export type FactType = typeof FACT_TYPES[number];
export const FACT_SCOPES = ["project", "global"] as const;
export type FactScope = typeof FACT_SCOPES[number];
export type FactStatus = "active" | "forgotten";

export interface Fact {
  id: string;
  /** A short handle, unique among the active facts of its scope. */
  name: string;
  description: string;
  type: FactType;
  scope: FactScope;
  revision: number;
  /** ISO times. */
  created: string;
  updated: string;
  status: FactStatus;
  body: string;
}

/** Ids are generated here and checked on every read: they name files, so nothing else may pass. */
export const ID_PATTERN = /^m-[a-z0-9]{6,32}$/;
const NAME_MAX = 64;

export function newFactId(): string {
  const random = crypto.getRandomValues(new Uint8Array(6));
  return `m-${[...random].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** `Deploy Command!` → `deploy-command`; empty when nothing usable is left. */
export function factName(text: string): string {
  return text.toLowerCase().normalize("NFKC").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "")
    .slice(0, NAME_MAX).replace(/-+$/, "");
}

/** One line, no control characters: for descriptions, names and index lines. */
export function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/\s+/g, " ").trim();
}

const KEYS = [
  "id",
  "name",
  "description",
  "type",
  "scope",
  "revision",
  "created",
  "updated",
  "status",
] as const;

export function formatFact(fact: Fact): string {
  const lines = KEYS.map((key) => {
    const value = fact[key];
    return `${key}: ${typeof value === "number" ? String(value) : JSON.stringify(value)}`;
  });
  return `---\n${lines.join("\n")}\n---\n\n${fact.body.trim()}\n`;
}

/** Parses a fact file; null when it is not one of ours (a hand-edited or foreign file is skipped). */
export function parseFact(text: string): Fact | null {
  const match = /^---\n([\s\S]*?)\n---\n\n?([\s\S]*)$/.exec(text.replace(/\r\n/g, "\n"));
  if (!match) return null;
  const fields: Record<string, unknown> = {};
  for (const line of match[1]!.split("\n")) {
    const colon = line.indexOf(":");
    if (colon < 1) return null;
    const raw = line.slice(colon + 1).trim();
    try {
      fields[line.slice(0, colon).trim()] = raw.startsWith('"') ? JSON.parse(raw) : Number(raw);
    } catch {
      return null;
    }
  }
  return checked(fields, match[2]!.trim());
}

function checked(fields: Record<string, unknown>, body: string): Fact | null {
  const { id, name, description, type, scope, revision, created, updated, status } = fields;
  if (typeof id !== "string" || !ID_PATTERN.test(id)) return null;
  if (typeof name !== "string" || typeof description !== "string") return null;
  if (!FACT_TYPES.includes(type as FactType) || !FACT_SCOPES.includes(scope as FactScope)) return null;
  if (typeof revision !== "number" || !Number.isInteger(revision) || revision < 1) return null;
  if (typeof created !== "string" || typeof updated !== "string") return null;
  if (status !== "active" && status !== "forgotten") return null;
  return {
    id,
    name,
    description,
    type: type as FactType,
    scope: scope as FactScope,
    revision,
    created,
    updated,
    status,
    body,
  };
}
