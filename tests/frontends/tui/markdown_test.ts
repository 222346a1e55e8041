import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import stringWidth from "string-width";
import { renderMarkdown, StreamingMarkdown } from "../../../src/frontends/tui/markdown.ts";
import { makeTheme } from "../../../src/frontends/tui/theme.ts";

const COLOR = makeTheme("dark", true);
const PLAIN = makeTheme("dark", false);
// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/;

const SAMPLE = [
  "# Plan 计划",
  "",
  "Intro with **bold**, *em* and `code`.",
  "",
  "- first **bold item** with `inline code` 中文",
  "- second",
  "",
  "| 名字 | value |",
  "|---|---|",
  "| 中文字符 | 42 |",
  "",
  "```ts",
  "const answer: number = 42; // note",
  "```",
  "",
  "## Next",
  "",
  "1. one",
  "2. two",
  "",
].join("\n");

Deno.test("renderMarkdown() lays out headings, lists, tables and code without Markdown marks", () => {
  const out = renderMarkdown(SAMPLE, { width: 60, theme: PLAIN });
  assert.doesNotMatch(out, SGR);
  const lines = out.split("\n");
  assert.equal(lines[0], "Plan 计划");
  assert.ok(lines.includes("Intro with bold, em and code."), out);
  assert.ok(lines.includes("  * first bold item with inline code 中文"), out);
  assert.ok(lines.some((line) => line.includes("│ 中文字符 │ 42    │")), out);
  assert.ok(lines.includes("  const answer: number = 42; // note"), out);
  assert.ok(lines.includes("Next"), out);
  assert.ok(lines.includes("  1. one"), out);
  assert.doesNotMatch(out, /\*\*|```|^#/m);
});

Deno.test("renderMarkdown() styles inline text inside list items and highlights code", () => {
  const out = renderMarkdown(SAMPLE, { width: 60, theme: COLOR });
  const item = out.split("\n").find((line) => line.includes("first"))!;
  assert.ok(item.includes(COLOR.paint.strong("bold item")), JSON.stringify(item));
  assert.ok(item.includes(COLOR.paint.codespan("inline code")), JSON.stringify(item));
  const code = out.split("\n").find((line) => line.includes("answer"))!;
  assert.ok(code.includes(COLOR.paint.keyword("const")), JSON.stringify(code));
  assert.ok(code.includes(COLOR.paint.comment("// note")), JSON.stringify(code));
  assert.equal(stripVTControlCharacters(out), renderMarkdown(SAMPLE, { width: 60, theme: PLAIN }));
});

Deno.test("renderMarkdown() wraps by display width, counting CJK as two columns", () => {
  const text = "这是一段很长的中文段落，用来检查按显示宽度换行是否正确处理全角字符和 mixed English words.";
  for (const width of [20, 33, 41]) {
    const out = renderMarkdown(text, { width, theme: COLOR });
    const lines = out.split("\n");
    assert.ok(lines.length > 1);
    for (const line of lines) {
      assert.ok(stringWidth(line) <= width, `${stringWidth(line)} > ${width}: ${line}`);
    }
    assert.equal(stripVTControlCharacters(out).replace(/\n/g, "").replace(/ /g, ""), text.replace(/ /g, ""));
  }
});

Deno.test("renderMarkdown() hangs wrapped list items under their text", () => {
  const out = renderMarkdown("- alpha beta gamma delta epsilon zeta eta theta", { width: 24, theme: PLAIN });
  const [first, ...rest] = out.split("\n");
  assert.match(first!, /^ {2}\* alpha/);
  assert.ok(rest.length > 0);
  for (const line of rest) assert.match(line, /^ {4}\S/);
});

Deno.test("StreamingMarkdown gives the same screen as a full render at every prefix", () => {
  const stream = new StreamingMarkdown({ width: 50, theme: COLOR });
  for (let end = 1; end <= SAMPLE.length; end += 7) {
    const prefix = SAMPLE.slice(0, end);
    assert.equal(stream.render(prefix), renderMarkdown(prefix, { width: 50, theme: COLOR }), `at ${end}`);
  }
  assert.equal(stream.render(SAMPLE), renderMarkdown(SAMPLE, { width: 50, theme: COLOR }));
  assert.ok(stream.stableLength > SAMPLE.indexOf("## Next"), "finished blocks are kept");
});

Deno.test("StreamingMarkdown keeps finished blocks and re-renders only the tail", () => {
  const stream = new StreamingMarkdown({ width: 80, theme: PLAIN });
  const block = "Paragraph number one.\n\n";
  let text = "";
  for (let i = 0; i < 200; i++) {
    text += block;
    stream.render(text + "partial tail");
  }
  assert.ok(stream.stableLength >= text.length - block.length, `${stream.stableLength} of ${text.length}`);
  assert.ok(stream.render(text + "partial tail").endsWith("partial tail"));
});

Deno.test("StreamingMarkdown starts over when the text is replaced", () => {
  const stream = new StreamingMarkdown({ width: 40, theme: PLAIN });
  stream.render("First.\n\nSecond.\n\nThird");
  assert.equal(stream.render("Other.\n\nText"), "Other.\n\nText");
});

Deno.test("an unclosed code fence renders as code while it streams", () => {
  const out = renderMarkdown("Look:\n\n```python\ndef f(x):\n    return x", { width: 40, theme: PLAIN });
  assert.ok(out.includes("  def f(x):\n      return x"), out);
});
