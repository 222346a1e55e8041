/**
 * @module
 * Where a streaming answer's finished Markdown blocks end. Only marked's lexer: the state needs it from
 * the first frame, while the renderer (markdown.ts, with marked-terminal and highlight.js) loads after
 * the first paint.
 */
import { Lexer, type Token } from "marked";

/**
 * The leading blocks of a streaming answer that later text can no longer change, as their lengths (a
 * block's blank lines count with it). The TUI settles them so the live region stays short (a live
 * region taller than the screen makes Ink redraw everything it ever printed, on every delta), one
 * entry per block, so the screen does not depend on how the deltas were batched.
 */
export function finishedMarkdownBlocks(text: string): number[] {
  const tokens = Lexer.lex(text);
  const blocks: number[] = [];
  const end = lastContentIndex(tokens);
  for (let index = 0; index < end; index++) {
    const token = tokens[index]!;
    if (token.type === "space" && blocks.length > 0) blocks[blocks.length - 1]! += token.raw.length;
    else blocks.push(token.raw.length);
  }
  return blocks;
}

export function lastContentIndex(tokens: readonly Token[]): number {
  let lastContent = -1;
  tokens.forEach((token, index) => {
    if (token.type !== "space") lastContent = index;
  });
  return lastContent;
}
