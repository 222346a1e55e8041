import assert from "node:assert/strict";
import {
  ControlStripper,
  escapeControls,
  stripControls,
  terminalSafeJson,
} from "../../src/lib/terminal_text.ts";

/** No C0 control but newline and tab, no DEL, no C1, no bidi control. */
// deno-lint-ignore no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const TABLE: { name: string; input: string; stripped: string; escaped: string }[] = [
  {
    name: "OSC 52 clipboard write (BEL)",
    input: "a\x1b]52;c;SGVsbG8=\x07b",
    stripped: "ab",
    escaped: "a␛]52;c;SGVsbG8=␇b",
  },
  {
    name: "OSC 52 ended by ST",
    input: "a\x1b]52;c;SGVsbG8=\x1b\\b",
    stripped: "ab",
    escaped: "a␛]52;c;SGVsbG8=␛\\b",
  },
  { name: "OSC 0 window title", input: "\x1b]0;PWNED\x07ok", stripped: "ok", escaped: "␛]0;PWNED␇ok" },
  { name: "OSC 2 window title", input: "\x1b]2;PWNED\x1b\\ok", stripped: "ok", escaped: "␛]2;PWNED␛\\ok" },
  {
    name: "OSC 8 hyperlink keeps its visible text",
    input: "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    stripped: "click",
    escaped: "␛]8;;https://evil.example␛\\click␛]8;;␛\\",
  },
  { name: "CSI clear screen", input: "x\x1b[2Jy", stripped: "xy", escaped: "x␛[2Jy" },
  { name: "CSI cursor move", input: "x\x1b[10;20Hy\x1b[1A", stripped: "xy", escaped: "x␛[10;20Hy␛[1A" },
  { name: "CSI private mode", input: "\x1b[?1049hz", stripped: "z", escaped: "␛[?1049hz" },
  { name: "SGR colour", input: "\x1b[31mred\x1b[0m", stripped: "red", escaped: "␛[31mred␛[0m" },
  { name: "8-bit CSI", input: "x\x9b2Jy", stripped: "xy", escaped: "x<U+009B>2Jy" },
  {
    name: "8-bit OSC ended by 8-bit ST",
    input: "x\x9d0;T\x9cy",
    stripped: "xy",
    escaped: "x<U+009D>0;T<U+009C>y",
  },
  { name: "DCS", input: "a\x1bPq#0;2;0;0;0\x1b\\b", stripped: "ab", escaped: "a␛Pq#0;2;0;0;0␛\\b" },
  { name: "APC", input: "a\x1b_Gf=100;AAAA\x1b\\b", stripped: "ab", escaped: "a␛_Gf=100;AAAA␛\\b" },
  { name: "two-character escape (reset)", input: "a\x1bcb", stripped: "ab", escaped: "a␛cb" },
  { name: "charset designation", input: "a\x1b(0b", stripped: "ab", escaped: "a␛(0b" },
  { name: "lone ESC before a newline", input: "a\x1b\nb", stripped: "a\nb", escaped: "a␛\nb" },
  { name: "lone ESC at the end", input: "a\x1b", stripped: "a", escaped: "a␛" },
  { name: "BEL", input: "ding\x07", stripped: "ding", escaped: "ding␇" },
  {
    name: "backspace overwrite",
    input: "rm -rf /\b\b\b\bls",
    stripped: "rm -rf /ls",
    escaped: "rm -rf /␈␈␈␈ls",
  },
  { name: "carriage return overwrite", input: "evil\rgood", stripped: "evil\ngood", escaped: "evil␍good" },
  { name: "CRLF", input: "a\r\nb", stripped: "a\nb", escaped: "a␍\nb" },
  { name: "DEL and NUL", input: "a\x7fb\x00c", stripped: "abc", escaped: "a␡b␀c" },
  { name: "C1 NEL", input: "a\x85b", stripped: "ab", escaped: "a<U+0085>b" },
  {
    name: "bidi override",
    input: "access\u202e\u2066level\u2069\u202c",
    stripped: "accesslevel",
    escaped: "access<U+202E><U+2066>level<U+2069><U+202C>",
  },
  { name: "line separator", input: "a\u2028b", stripped: "a\nb", escaped: "a<U+2028>b" },
  {
    name: "zero-width space is visible only when escaped",
    input: "a\u200bb",
    stripped: "a\u200bb",
    escaped: "a<U+200B>b",
  },
  { name: "newlines and tabs kept", input: "a\n\tb\n", stripped: "a\n\tb\n", escaped: "a\n\tb\n" },
  { name: "CJK and emoji kept", input: "你好 👨‍👩‍👧 ❤️ 🇨🇳", stripped: "你好 👨‍👩‍👧 ❤️ 🇨🇳", escaped: "你好 👨‍👩‍👧 ❤️ 🇨🇳" },
  {
    name: "unterminated OSC keeps its text",
    input: "\x1b]0;no end here",
    stripped: "0;no end here",
    escaped: "␛]0;no end here",
  },
  { name: "CAN aborts an OSC", input: "\x1b]0;T\x18ok", stripped: "ok", escaped: "␛]0;T␘ok" },
];

for (const row of TABLE) {
  Deno.test(`stripControls() removes ${row.name}`, () => {
    assert.equal(stripControls(row.input), row.stripped);
    assert.doesNotMatch(stripControls(row.input), UNSAFE);
  });
  Deno.test(`escapeControls() shows ${row.name}`, () => {
    assert.equal(escapeControls(row.input), row.escaped);
    assert.doesNotMatch(escapeControls(row.input), UNSAFE);
  });
  Deno.test(`ControlStripper removes ${row.name} split at every point`, () => {
    for (let cut = 0; cut <= row.input.length; cut++) {
      const stream = new ControlStripper();
      const out = stream.push(row.input.slice(0, cut)) + stream.push(row.input.slice(cut)) + stream.flush();
      assert.equal(out, row.stripped, `cut at ${cut}`);
    }
  });
}

Deno.test("ControlStripper streams one character at a time", () => {
  const input = "Hi\x1b]52;c;SGVsbG8=\x07 there\x1b[2J\r\nbye\x9b1m!";
  const stream = new ControlStripper();
  let out = "";
  for (const char of input) out += stream.push(char);
  assert.equal(out + stream.flush(), "Hi there\nbye!");
});

Deno.test("ControlStripper gives up on an unterminated sequence longer than it holds", () => {
  const stream = new ControlStripper();
  const payload = "A".repeat(10_000);
  const out = stream.push(`\x1b]52;c;${payload}`) + stream.push("tail") + stream.flush();
  assert.equal(out, `52;c;${payload}tail`);
});

Deno.test("stripControls() output never holds a control, whatever the input", () => {
  const pieces = [
    "\x1b",
    "[",
    "]",
    "\x07",
    "\x9b",
    "\x9d",
    "\x9c",
    "\\",
    "P",
    "0",
    ";",
    "a",
    "\r",
    "\n",
    "\u202e",
  ];
  let seed = 7;
  for (let round = 0; round < 2000; round++) {
    let text = "";
    for (let i = 0; i < 12; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      text += pieces[seed % pieces.length];
    }
    assert.doesNotMatch(stripControls(text), UNSAFE, JSON.stringify(text));
    assert.doesNotMatch(escapeControls(text), UNSAFE, JSON.stringify(text));
  }
});

Deno.test("terminalSafeJson() escapes C1 and bidi controls and parses to the same value", () => {
  const value = { text: "a\x1b]0;T\x07\x9b2J\u202e\u2028你好 😀" };
  const json = terminalSafeJson(JSON.stringify(value));
  assert.doesNotMatch(json, UNSAFE);
  assert.doesNotMatch(json, /[\u2028\u2029]/);
  assert.ok(json.includes("\\u009b") && json.includes("\\u202e") && json.includes("你好 😀"));
  assert.deepEqual(JSON.parse(json), value);
});
