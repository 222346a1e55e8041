/**
 * @module
 * When a memory change may happen without asking. Only a bounded, non-sensitive, new project fact
 * that repeats none already kept may; everything else (global facts, preferences, updates, restores,
 * duplicates, secret-looking or oversized text, every forget) needs a fresh answer from a person, in
 * every permission mode. What the model saves outlives the session, so the bar is higher than for a
 * file edit: a repository's text could otherwise plant a standing instruction.
 */
import { redactSecrets } from "../../lib/redact.ts";
import type { Fact } from "./fact.ts";

/** Bigger than this is saved only with approval. */
export const AUTO_MAX_BODY = 600;
export const AUTO_MAX_DESCRIPTION = 160;
/** Bigger than this is refused outright: memory holds facts, not documents. */
export const MAX_BODY = 4000;
export const MAX_DESCRIPTION = 300;

export type ChangeKind = "create" | "update" | "forget" | "restore";

export interface MemoryChange {
  kind: ChangeKind;
  next: Fact;
  previous: Fact | null;
  /** An active fact saying the same thing. */
  duplicateOf?: Fact;
}

const CREDENTIAL_WORDS =
  /\b(password|passwd|passphrase|secret|api[_ -]?key|access[_ -]?key|auth[_ -]?token|access[_ -]?token|private[_ -]?key|credentials?|cookie)s?\b\s*(is|[:=])/i;

/** Text that holds or labels a credential. */
export function looksSensitive(text: string): boolean {
  return redactSecrets(text) !== text || CREDENTIAL_WORDS.test(text);
}

/** Why a person must approve this change; empty when it may be saved without asking. */
export function approvalReasons(change: MemoryChange): string[] {
  const { next } = change;
  const reasons: string[] = [];
  if (change.kind === "forget") reasons.push("forgetting a fact always needs approval");
  if (change.kind === "update") {
    reasons.push(`it changes "${next.name}" (revision ${change.previous?.revision})`);
  }
  if (change.kind === "restore") reasons.push(`it restores an earlier revision of "${next.name}"`);
  if (next.scope === "global") reasons.push("global facts reach every project");
  if (next.type === "user" || next.type === "feedback") {
    reasons.push(`it records a preference (type ${next.type})`);
  }
  if (change.duplicateOf) reasons.push(`it repeats "${change.duplicateOf.name}"`);
  if (change.kind !== "forget" && looksSensitive(`${next.description}\n${next.body}`)) {
    reasons.push("it looks like it holds a secret");
  }
  if (next.body.length > AUTO_MAX_BODY || next.description.length > AUTO_MAX_DESCRIPTION) {
    reasons.push(`it is longer than ${AUTO_MAX_BODY} characters`);
  }
  return reasons;
}

/** An active fact that says the same as `body` (same words, near enough), if any. */
export function duplicateOf(facts: readonly Fact[], candidate: Pick<Fact, "id" | "body" | "description">) {
  const words = wordSet(candidate.body);
  return facts.find((fact) => {
    if (fact.id === candidate.id) return false;
    if (normal(fact.body) === normal(candidate.body)) return true;
    if (normal(fact.description) === normal(candidate.description)) return true;
    return jaccard(wordSet(fact.body), words) >= 0.8;
  });
}

function normal(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}
