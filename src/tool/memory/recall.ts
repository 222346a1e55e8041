/**
 * @module
 * Auto-recall: the few active facts a user message is about, by BM25+ (minisearch) over name,
 * description and body. A message with no content words ("ok", "continue") recalls nothing; a
 * project fact beats an equivalent global one; a fact not updated for a long time ranks lower.
 */
import MiniSearch from "minisearch";
import type { Fact } from "./fact.ts";
import { duplicateOf } from "./policy.ts";

export const RECALL_MAX_FACTS = 4;
export const RECALL_MAX_CHARS = 2400;
const BODY_MAX = 600;
/** Facts scoring under this share of the best one are noise. */
const RELATIVE_CUTOFF = 0.3;
const GLOBAL_WEIGHT = 0.8;
const FRESH_DAYS = 30;
const DECAY_DAYS = 180;
const DAY_MS = 86_400_000;

const STOPWORDS = new Set(
  ("a an and are as at be but by can could did do does done for from go going had has have he her here him " +
    "his how i if in into is it its just let me more my no not now of ok okay on or our please proceed " +
    "right so sure than thank thanks that the their them then there these they this those to too try up us " +
    "very was we well were what when where which who why will with would yes yeah yep you your continue " +
    "next again good great fine nice cool done keep going carry agreed correct go ahead sounds looks lgtm " +
    "好 好的 继续 是 嗯 谢谢 可以")
    .split(" "),
);

export interface Recalled {
  fact: Fact;
  body: string;
  score: number;
}

/** The words of `message` worth searching for; empty for a generic turn. */
export function queryTerms(message: string): string[] {
  const words = message.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [
    ...new Set(words.filter((word) => !STOPWORDS.has(word) && (word.length >= 3 || /\p{Lo}/u.test(word)))),
  ];
}

/** The facts to recall for `message`, best first, within the count and size bounds. */
export function recallFacts(
  facts: readonly Fact[],
  message: string,
  options: { now: Date; skip?: ReadonlySet<string>; limit?: number },
): Recalled[] {
  const terms = queryTerms(message);
  if (terms.length === 0 || facts.length === 0) return [];
  const index = new MiniSearch<Fact>({
    fields: ["name", "description", "body"],
    storeFields: [],
    searchOptions: { boost: { description: 2, name: 1.5 }, combineWith: "OR" },
  });
  index.addAll(facts);
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  const projectFacts = facts.filter((fact) => fact.scope === "project");
  const ranked = new Map<string, Recalled>();
  for (const hit of index.search(terms.join(" "))) {
    let fact = byId.get(hit.id as string)!;
    if (fact.scope === "global") fact = duplicateOf(projectFacts, fact) ?? fact;
    const score = hit.score * (fact.scope === "global" ? GLOBAL_WEIGHT : 1) * freshness(fact, options.now);
    const seen = ranked.get(fact.id);
    if (!seen || seen.score < score) ranked.set(fact.id, { fact, body: bounded(fact.body), score });
  }
  const sorted = [...ranked.values()].sort((a, b) => b.score - a.score || (a.fact.id < b.fact.id ? -1 : 1));
  const best = sorted[0]?.score ?? 0;
  const chosen: Recalled[] = [];
  let used = 0;
  for (const recalled of sorted) {
    if (recalled.score < best * RELATIVE_CUTOFF || chosen.length >= (options.limit ?? RECALL_MAX_FACTS)) {
      break;
    }
    if (options.skip?.has(recalled.fact.id)) continue;
    if (used + recalled.body.length > RECALL_MAX_CHARS) continue;
    chosen.push(recalled);
    used += recalled.body.length;
  }
  return chosen;
}

/** 1 for a fact updated in the last month, then slowly less. */
function freshness(fact: Fact, now: Date): number {
  const updated = Date.parse(fact.updated);
  if (Number.isNaN(updated)) return 1;
  const days = (now.getTime() - updated) / DAY_MS;
  return days <= FRESH_DAYS ? 1 : 1 / (1 + (days - FRESH_DAYS) / DECAY_DAYS);
}

function bounded(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > BODY_MAX ? `${line.slice(0, BODY_MAX - 1)}…` : line;
}
