/**
 * @module
 * Fuzzy matching for `@path` and `/command` completion: the query's characters must appear in
 * order; matches that start a path segment or run consecutively rank higher, and a hit in the
 * file name beats one buried in a directory name.
 */

const SEGMENT_START = /[/\\._\-\s]/;
const CONSECUTIVE_BONUS = 8;
const SEGMENT_BONUS = 6;
const BASENAME_BONUS = 3;

/** A score (higher is better) or `undefined` when `query` is not a subsequence of `candidate`. */
export function fuzzyScore(query: string, candidate: string): number | undefined {
  const q = [...query.toLowerCase()];
  const c = [...candidate.toLowerCase()];
  if (q.length === 0) return 0;
  const baseStart = Math.max(c.lastIndexOf("/"), c.lastIndexOf("\\")) + 1;
  const gain = (j: number) =>
    1 + (j === 0 || SEGMENT_START.test(c[j - 1] ?? "") ? SEGMENT_BONUS : 0) +
    (j >= baseStart ? BASENAME_BONUS : 0);
  // row[j]: best score with the current query character placed at c[j] (-Infinity: impossible).
  let row = c.map((ch, j) => ch === q[0] ? gain(j) : -Infinity);
  for (let i = 1; i < q.length; i++) {
    const next = new Array<number>(c.length).fill(-Infinity);
    let bestBefore = -Infinity; // best of row[k] for k < j - 1
    for (let j = 1; j < c.length; j++) {
      if (j >= 2) bestBefore = Math.max(bestBefore, row[j - 2] ?? -Infinity);
      if (c[j] !== q[i]) continue;
      const from = Math.max(bestBefore, (row[j - 1] ?? -Infinity) + CONSECUTIVE_BONUS);
      if (from > -Infinity) next[j] = from + gain(j);
    }
    row = next;
  }
  const best = Math.max(...row);
  return best === -Infinity ? undefined : best - (c.length - q.length) * 0.01;
}
/** The best `limit` candidates for `query`, best first; ties keep the input order. */
export function fuzzyRank(query: string, candidates: readonly string[], limit = 10): string[] {
  const scored: { value: string; score: number; index: number }[] = [];
  candidates.forEach((value, index) => {
    const score = fuzzyScore(query, value);
    if (score !== undefined) scored.push({ value, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((s) => s.value);
}
