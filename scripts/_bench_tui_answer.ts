/**
 * @module
 * The Markdown answer the TUI benches stream: headings, paragraphs with mixed scripts, lists, a quote,
 * tables and fenced code in TypeScript, Python, Bash and JSON. A token is one streamed delta of
 * `TOKEN_CHARS` code points (the simulator's chunking), so an answer of N tokens is ~4N code points.
 * Every rendered line carries a marker `m00042` numbered in order, so a captured screen tells how far
 * the visible text has got; the last line carries `END-OF-ANSWER` and the last marker.
 */

export const TOKEN_CHARS = 4;
const END = "END-OF-ANSWER";

export interface BenchAnswer {
  text: string;
  /** Deltas of TOKEN_CHARS code points the simulator streams. */
  tokens: number;
  /** Code point offset just past marker i (index 0 unused: markers start at 1). */
  markerEnds: number[];
  /** The last line, shown once the whole answer is on screen. */
  finalLine: string;
}

const BLOCKS: string[] = [
  "## Section {s}: how the renderer streams @\n\n",
  "The renderer keeps **finished blocks** and re-renders only the `tail`; 中文与 English 混排 @.\n\n",
  "- first item with `inline code` @\n- second item with **bold** and _italic_ text @\n- 第三项：宽字符对齐 @\n\n",
  "```ts\nexport function add(a: number, b: number): number { // @\n  return a + b; // sum @\n}\n```\n\n",
  "| key | 值 | note |\n|---|---|---|\n| alpha | 1 | @ |\n| 中文 | 2 | @ |\n\n",
  '```python\ndef greet(name: str) -> str:  # @\n    return f"hello {name}"  # @\n```\n\n',
  "1. run the tests @\n2. read the diff @\n\n> A quoted note about caching the prefix @\n\n",
  '```bash\nfor f in src/*.ts; do deno fmt "$f"; done  # @\n```\n\n',
  '```json\n{ "model": "deepseek-flash", "stream": true, "marker": "@" }\n```\n\n',
];

export function marker(id: number): string {
  return `m${String(id).padStart(5, "0")}`;
}

/** An answer of at least `tokens` deltas, ending with the final line. */
export function benchAnswer(tokens: number): BenchAnswer {
  const target = tokens * TOKEN_CHARS;
  const markerEnds = [0];
  let text = "";
  let length = 0;
  const append = (piece: string) => {
    for (const [i, part] of piece.split("@").entries()) {
      if (i > 0) {
        const tag = marker(markerEnds.length);
        text += tag;
        length += tag.length;
        markerEnds.push(length);
      }
      text += part;
      length += Array.from(part).length;
    }
  };
  for (let n = 0; length < target; n++) {
    append(BLOCKS[n % BLOCKS.length]!.replace("{s}", String(1 + Math.floor(n / BLOCKS.length))));
  }
  append(`${END} @`);
  const finalLine = `${END} ${marker(markerEnds.length - 1)}`;
  return { text, tokens: Math.ceil(length / TOKEN_CHARS), markerEnds, finalLine };
}

/** The highest marker on a captured screen, 0 when none shows. */
export function lastMarker(screen: string): number {
  let best = 0;
  for (const match of screen.matchAll(/\bm(\d{5})\b/g)) best = Math.max(best, Number(match[1]));
  return best;
}

/**
 * How many tokens the screen trails the stream: code points sent minus the end of the highest visible
 * marker, in tokens, never below 0. Resolution is one line (markers sit at line ends).
 */
export function trailTokens(answer: BenchAnswer, sentTokens: number, visibleMarker: number): number {
  const sent = Math.min(sentTokens * TOKEN_CHARS, answer.markerEnds.at(-1)!);
  const shown = answer.markerEnds[visibleMarker] ?? 0;
  return Math.max(0, Math.round((sent - shown) / TOKEN_CHARS));
}
