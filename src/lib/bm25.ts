/**
 * @module
 * BM25 ranking of short texts for a query, built fresh per call (minisearch's BM25+): callers index a
 * bounded set of documents, so no index is kept. Words are lower-cased Unicode letter/digit runs; CJK
 * runs also count each character, and a few English function words are ignored.
 */
import MiniSearch from "minisearch";

export interface Bm25Doc {
  id: number;
  text: string;
}

export interface Bm25Hit {
  id: number;
  score: number;
  /** The indexed words that matched, for snippets. */
  terms: string[];
}

const WORD = /[\p{L}\p{N}_]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const STOP_WORDS = new Set(
  ("a an and are as at be but by did do for from how i in is it of on or that the this to was we what " +
    "when where which with you").split(" "),
);
/** Prefix matching only for words this long, so "go" does not match every "good". */
const PREFIX_MIN = 4;

/** The words of `text` as they are indexed and searched. */
export function bm25Terms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (CJK.test(word)) {
      terms.push(...[...word].filter((char) => CJK.test(char)));
      const rest = word.split(CJK).filter((part) => part !== "");
      terms.push(...rest.filter((part) => !STOP_WORDS.has(part)));
    } else if (!STOP_WORDS.has(word)) terms.push(word);
  }
  return terms;
}

/** The documents matching any word of `query`, best first (ties: the higher id first), at most `limit`. */
export function bm25Search(docs: readonly Bm25Doc[], query: string, limit: number): Bm25Hit[] {
  const words = bm25Terms(query);
  if (words.length === 0 || docs.length === 0) return [];
  const index = new MiniSearch<Bm25Doc>({
    fields: ["text"],
    idField: "id",
    tokenize: bm25Terms,
    processTerm: (term) => term,
  });
  index.addAll(docs);
  const found = index.search(words.join(" "), {
    prefix: (term) => term.length >= PREFIX_MIN,
    tokenize: bm25Terms,
    processTerm: (term) => term,
    combineWith: "OR",
  });
  return found
    .map((result) => ({ id: Number(result.id), score: result.score, terms: result.terms }))
    .sort((a, b) => b.score - a.score || b.id - a.id)
    .slice(0, limit);
}
