/**
 * @module
 * Markdown to ANSI at a given width: marked parses, marked-terminal lays out, cli-highlight colours
 * code, wrap-ansi wraps by display width (CJK and emoji count two columns). A streaming answer is
 * rendered through `StreamingMarkdown`, which renders each finished top-level block once and
 * re-renders only the unfinished tail, so a long answer costs the same per update as a short one.
 */
import { Marked, type Token } from "marked";
import { markedTerminal } from "marked-terminal";
import { highlight, supportsLanguage, type Theme as HighlightTheme } from "cli-highlight";
import wrapAnsi from "wrap-ansi";
import stringWidth from "string-width";
import { stripVTControlCharacters } from "node:util";
import type { Painters, Theme } from "./theme.ts";
import { stripControls } from "../../lib/terminal_text.ts";
import { lastContentIndex } from "./markdown_blocks.ts";

export { finishedMarkdownBlocks } from "./markdown_blocks.ts";

export interface MarkdownOptions {
  width: number;
  theme: Theme;
}

const CODE_INDENT = "  ";
const LIST_PREFIX = /^(\s*(?:[*+•-]|\d+\.)\s+)/;

interface Engine {
  marked: Marked;
  options: MarkdownOptions;
  /** Rendered blocks by source text: the live tail's last form is the block that settles next. */
  rendered: Map<string, string>;
}

const RENDERED_BLOCKS = 256;

const engines = new WeakMap<Theme, Map<number, Engine>>();

function engineFor(options: MarkdownOptions): Engine {
  let byWidth = engines.get(options.theme);
  if (!byWidth) engines.set(options.theme, byWidth = new Map());
  let engine = byWidth.get(options.width);
  if (!engine) {
    byWidth.set(options.width, engine = { marked: buildMarked(options), options, rendered: new Map() });
  }
  return engine;
}

function buildMarked(options: MarkdownOptions): Marked {
  const paint = options.theme.paint;
  const marked = new Marked({ gfm: true });
  marked.use(
    markedTerminal({
      width: options.width,
      reflowText: false,
      showSectionPrefix: false,
      tab: CODE_INDENT.length,
      emoji: false,
      heading: paint.heading,
      firstHeading: paint.firstHeading,
      strong: paint.strong,
      em: paint.em,
      del: paint.del,
      codespan: paint.codespan,
      link: paint.link,
      href: paint.link,
      blockquote: paint.quote,
      html: paint.muted,
      code: (text: string) => text,
      hr: (text: string) => text,
      listitem: (text: string) => text,
      paragraph: (text: string) => text,
      table: (text: string) => text,
      tableOptions: { style: { head: [], border: [] } },
    }) as Parameters<Marked["use"]>[0],
  );
  marked.use({
    renderer: {
      // marked-terminal prints list-item text raw; render its inline tokens (bold, code) instead.
      text(token) {
        if ("tokens" in token && token.tokens?.length) return this.parser.parseInline(token.tokens);
        return false;
      },
      code(token) {
        return `${indent(highlightCode(token.text, token.lang, paint))}\n\n`;
      },
    },
  });
  return marked;
}

function indent(text: string): string {
  return text.split("\n").map((line) => CODE_INDENT + line).join("\n");
}

function highlightCode(clean: string, lang: string | undefined, paint: Painters): string {
  const language = lang?.trim().split(/\s+/)[0];
  if (!language || !supportsLanguage(language)) return clean;
  try {
    return highlight(clean, { language, ignoreIllegals: true, theme: highlightTheme(paint) });
  } catch {
    return clean;
  }
}

function highlightTheme(paint: Painters): HighlightTheme {
  return {
    keyword: paint.keyword,
    built_in: paint.type,
    type: paint.type,
    literal: paint.number,
    number: paint.number,
    regexp: paint.string,
    string: paint.string,
    symbol: paint.number,
    class: paint.type,
    function: paint.func,
    title: paint.func,
    comment: paint.comment,
    doctag: paint.comment,
    meta: paint.muted,
    tag: paint.keyword,
    name: paint.func,
    attr: paint.type,
    addition: paint.string,
    deletion: paint.del,
  };
}

/** Renders a whole Markdown text; no trailing blank lines. */
export function renderMarkdown(text: string, options: MarkdownOptions): string {
  return trimEnd(renderBlock(text, engineFor(options)));
}

/** The model's text is cleaned before parsing: the renderer's own colour codes come after. */
function renderBlock(text: string, engine: Engine): string {
  const known = engine.rendered.get(text);
  if (known !== undefined) return known;
  const rendered = engine.marked.parse(stripControls(text), { async: false }) as string;
  const plain = engine.options.theme.color ? rendered : stripVTControlCharacters(rendered);
  const wrapped = wrapLines(plain, engine.options.width);
  if (engine.rendered.size >= RENDERED_BLOCKS) engine.rendered.delete(engine.rendered.keys().next().value!);
  engine.rendered.set(text, wrapped);
  return wrapped;
}

function wrapLines(text: string, width: number): string {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (stringWidth(line) <= width) {
      out.push(line);
      continue;
    }
    const prefix = LIST_PREFIX.exec(line)?.[1] ?? /^\s*/.exec(line)![0];
    const hang = stringWidth(prefix) < width / 2 ? prefix : "";
    const body = wrapAnsi(line.slice(hang.length), Math.max(1, width - hang.length), { hard: true });
    const pad = " ".repeat(hang.length);
    body.split("\n").forEach((part, index) => out.push((index === 0 ? hang : pad) + part));
  }
  return out.join("\n");
}

function trimEnd(text: string): string {
  return text.replace(/\s+$/, "");
}

/**
 * Renders a text that only grows (a streaming answer). Finished top-level blocks are rendered once
 * and kept; each `render` re-lexes and re-renders only from the first unfinished block on.
 */
export class StreamingMarkdown {
  #engine: Engine;
  #text = "";
  #stableEnd = 0;
  #stable = "";

  constructor(options: MarkdownOptions) {
    this.#engine = engineFor(options);
  }

  render(text: string): string {
    if (!text.startsWith(this.#text)) this.#reset();
    this.#text = text;
    this.#advance();
    return trimEnd(this.#stable + renderBlock(text.slice(this.#stableEnd), this.#engine));
  }

  /** Characters already rendered for good (for tests and benches). */
  get stableLength(): number {
    return this.#stableEnd;
  }

  #reset(): void {
    this.#text = "";
    this.#stableEnd = 0;
    this.#stable = "";
  }

  #advance(): void {
    const tail = this.#text.slice(this.#stableEnd);
    const tokens = this.#engine.marked.lexer(tail);
    const finished = finishedLength(tokens);
    if (finished === 0) return;
    this.#stable += trimEnd(renderBlock(tail.slice(0, finished), this.#engine)) + "\n\n";
    this.#stableEnd += finished;
  }
}

/** The raw length of the leading blocks that later text can no longer change. */
function finishedLength(tokens: readonly Token[]): number {
  const lastContent = lastContentIndex(tokens);
  if (lastContent <= 0) return 0;
  let length = 0;
  for (let index = 0; index < lastContent; index++) length += tokens[index]!.raw.length;
  return length;
}
