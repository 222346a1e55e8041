import assert from "node:assert/strict";
import { renderMarkdown, StreamingMarkdown } from "../../../src/frontends/tui/markdown.ts";
import { makeTheme } from "../../../src/frontends/tui/theme.ts";
import { initialState, reduce, type TuiState } from "../../../src/frontends/tui/state.ts";
import { joinDeltas } from "../../../src/frontends/tui/event_batch.ts";

const COLOR = makeTheme("dark", true);
const PLAIN = makeTheme("dark", false);

/** Fences (backticks, tildes, blank lines and Markdown inside), nested lists and quotes, tables, CJK. */
const DOCUMENT = [
  "# Release notes 发布说明",
  "",
  "Some **bold**, _em_, `code` and a [link](https://example.com).",
  "",
  "```ts",
  "export function add(a: number, b: number): number {",
  "",
  "  # not a heading inside a fence",
  "  return a + b;",
  "}",
  "```",
  "",
  "- first",
  "  - nested with `code`",
  "    - deeper 中文",
  "- second",
  "",
  "1. one",
  "2. two",
  "   continued line",
  "",
  "> a quote",
  "> > nested quote with **bold**",
  "> back to the first level",
  "",
  "| key | 值 | note |",
  "|:---|---:|---|",
  "| alpha | 1 | a `pipe` |",
  "| 中文 | 22 | last |",
  "",
  "~~~python",
  "def greet(name):",
  '    return f"hi {name}"',
  "~~~",
  "",
  "---",
  "",
  "````md",
  "```inner fence```",
  "````",
  "",
  "Final paragraph that wraps because it is long enough to pass the width of the screen at forty columns.",
].join("\n");

function streamInChunks(size: number, options: { width: number; theme: typeof COLOR }) {
  const stream = new StreamingMarkdown(options);
  for (let end = size; end < DOCUMENT.length + size; end += size) {
    const prefix = DOCUMENT.slice(0, end);
    assert.equal(
      stream.render(prefix),
      renderMarkdown(prefix, options),
      `cut at ${end} of ${DOCUMENT.length}`,
    );
  }
}

Deno.test("StreamingMarkdown equals a full render at every cut, one character at a time (no colour)", () => {
  streamInChunks(1, { width: 40, theme: PLAIN });
});

Deno.test("StreamingMarkdown equals a full render at every 4-character delta (colour)", () => {
  streamInChunks(4, { width: 60, theme: COLOR });
});

Deno.test("the answer the app settles block by block reads as the whole answer rendered at once", () => {
  for (const batch of [1, 4, 64]) {
    let state: TuiState = reduce(initialState(), { type: "turn_started", turn: 1, text: "go" });
    for (let start = 0; start < DOCUMENT.length; start += batch * 4) {
      const deltas = [];
      for (let at = start; at < Math.min(DOCUMENT.length, start + batch * 4); at += 4) {
        deltas.push({ type: "text" as const, text: DOCUMENT.slice(at, at + 4) });
      }
      state = reduce(state, { type: "batch", events: joinDeltas(deltas) });
    }
    state = reduce(state, { type: "turn_done", subtype: "success", result: DOCUMENT });
    const answers = state.entries.filter((entry) => entry.kind === "answer");
    assert.equal(answers.map((entry) => entry.text).join(""), DOCUMENT);
    assert.ok(answers.length > 1, "finished blocks settled as they came");
    // Each settled entry is printed with one blank line below it (AnswerView's `continued`).
    const screen = answers.map((entry) => renderMarkdown(entry.text, { width: 60, theme: COLOR })).join(
      "\n\n",
    );
    assert.equal(screen, renderMarkdown(DOCUMENT, { width: 60, theme: COLOR }), `batches of ${batch} deltas`);
  }
});
