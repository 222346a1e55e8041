/**
 * @module
 * The simulator's model of DeepSeek V4 context caching (see /work/shared/DEEPSEEK.md), on token ids: a
 * request is tokenised piece by piece as `_sim_render.ts` renders it.
 *
 * Units (prefixes that can hit) are stored as (source tokens, length) pairs:
 * 1. the end of each request's input, and input + output rendered as an exact replay would render it;
 * 2. the longest common prefix of a request with each earlier request's input;
 * 3. every `UNIT_INTERVAL` tokens inside those sequences.
 * A request hits the longest unit that is a complete prefix of its input; its own units are added after.
 */

/** Tokens between the fixed-interval units (4096 characters at the old estimate of 4 a token). */
export const UNIT_INTERVAL = 1024;

export function commonPrefixLength(a: Uint32Array, b: Uint32Array): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a[i] === b[i]) i++;
  return i;
}

interface Source {
  tokens: Uint32Array;
  lengths: Set<number>;
  isInput: boolean;
}

export class CacheModel {
  #sources: Source[] = [];

  /** Tokens of the longest stored unit that is a complete prefix of `input`. */
  hit(input: Uint32Array): number {
    let best = 0;
    for (const source of this.#sources) {
      const common = commonPrefixLength(input, source.tokens);
      if (common <= best) continue;
      for (const length of source.lengths) {
        if (length <= common && length > best) best = length;
      }
    }
    return best;
  }

  /** Stores the units of one answered request: its input, input + output, common prefixes, intervals. */
  record(input: Uint32Array, inputWithOutput: Uint32Array): void {
    const inputUnits = intervalLengths(input.length);
    inputUnits.add(input.length);
    for (const source of this.#sources) {
      if (!source.isInput) continue;
      const common = commonPrefixLength(input, source.tokens);
      if (common > 0) inputUnits.add(common);
    }
    this.#sources.push({ tokens: input, lengths: inputUnits, isInput: true });
    const outputUnits = intervalLengths(inputWithOutput.length);
    outputUnits.add(inputWithOutput.length);
    this.#sources.push({ tokens: inputWithOutput, lengths: outputUnits, isInput: false });
  }
}

function intervalLengths(length: number): Set<number> {
  const lengths = new Set<number>();
  for (let at = UNIT_INTERVAL; at <= length; at += UNIT_INTERVAL) lengths.add(at);
  return lengths;
}
