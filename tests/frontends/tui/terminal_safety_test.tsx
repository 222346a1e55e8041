/**
 * Every TUI surface that shows text the model, a tool or the workspace produced: the frame holds our
 * own colour codes (SGR) and nothing else a terminal would act on.
 */
import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import type { ReactElement } from "react";
import { render } from "ink-testing-library";
import { TranscriptEntryView } from "../../../src/frontends/tui/components/transcript.tsx";
import { loadMarkdown } from "../../../src/frontends/tui/markdown_loader.ts";
import { ThemeContext } from "../../../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../../../src/frontends/tui/theme.ts";
import { ApprovalCard } from "../../../src/frontends/tui/approval_card.tsx";
import { QuestionCard } from "../../../src/frontends/tui/question_card.tsx";
import { startFlow } from "../../../src/frontends/tui/question_flow.ts";
import { CompletionMenuView } from "../../../src/frontends/tui/completion_menu.tsx";
import { renderMarkdown } from "../../../src/frontends/tui/markdown.ts";
import { initialState } from "../../../src/frontends/tui/state.ts";
import { statusText } from "../../../src/frontends/tui/status_line.tsx";
import { answerOnLines } from "../../../src/frontends/tui/line_questions.ts";
import { osc52 } from "../../../src/frontends/tui/clipboard.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";
import type { TranscriptEntry } from "../../../src/frontends/tui/transcript_types.ts";

// The App loads the renderer before any answer reaches it; these tests render entries directly.
await loadMarkdown();

const EVIL = "a\x1b]52;c;SGVsbG8=\x07b\x1b]0;PWNED\x07c\x1b[2J\x9b31md\u202ee\u2066f\x08g\rh";
// deno-lint-ignore no-control-regex
const OUR_SGR = /\x1b\[[0-9;]*m/g;
/** What may not reach the terminal once our own SGR codes are taken out. */
// deno-lint-ignore no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function rawFrame(element: ReactElement): string {
  setLanguage("en");
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", true)}>{element}</ThemeContext.Provider>,
  );
  const out = view.lastFrame() ?? "";
  view.unmount();
  view.cleanup();
  return out;
}

function assertSafe(raw: string): string {
  const rest = raw.replace(OUR_SGR, "");
  const match = UNSAFE.exec(rest);
  assert.equal(match, null, `U+${match?.[0].charCodeAt(0).toString(16)} in ${JSON.stringify(raw)}`);
  return stripVTControlCharacters(raw);
}

function entry(fields: TranscriptEntry): string {
  return assertSafe(rawFrame(<TranscriptEntryView entry={fields} width={100} />));
}

Deno.test("TUI answer: the model's escapes are removed before Markdown adds its own colours", () => {
  const text =
    `# Title ${EVIL}\n\n**bold ${EVIL}** [link${EVIL}](http://x/${EVIL})\n\n\`\`\`ts\nconst x = "${EVIL}";\n\`\`\`\n`;
  const out = entry({ kind: "answer", id: "a", text, streaming: false });
  assert.match(out, /Title abcdefg\n/);
  assert.match(out, /const x = "abcdefg/);
  const theme = makeTheme("dark", true);
  assertSafe(renderMarkdown(text, { width: 80, theme }));
});

Deno.test("TUI reasoning, user turn, notice and todo list: escapes removed", () => {
  assert.match(entry({ kind: "reasoning", id: "r", text: EVIL, streaming: false, folded: false }), /abcdefg/);
  assert.match(entry({ kind: "user", id: "u", text: EVIL }), /abcdefg/);
  assert.match(entry({ kind: "notice", id: "n", level: "warning", text: EVIL }), /abcdefg/);
  const todo = entry({ kind: "todo", id: "t", items: [{ content: EVIL, status: "in_progress" }] });
  assert.match(todo, /abcdefg/);
});

Deno.test("TUI tool card: name and command show their escapes as marks, output drops them", () => {
  const out = entry({
    kind: "tool",
    id: "t",
    callId: "c",
    name: `bash\x1b[2J`,
    arguments: JSON.stringify({ command: `printf '${EVIL}'` }),
    status: "ok",
    readOnly: false,
    folded: false,
    output: EVIL,
  });
  assert.match(out, /bash␛\[2J printf 'a␛\]52;c;SGVsbG8=␇b␛\]0;PWNED␇c␛\[2J<U\+009B>31md<U\+202E>e/);
  assert.match(out, /⎿ abcdefg/);
});

Deno.test("TUI diffs show a written file's escapes as marks", () => {
  const tool = entry({
    kind: "tool",
    id: "t",
    callId: "c",
    name: "write_file",
    arguments: JSON.stringify({ path: "x.txt" }),
    status: "ok",
    readOnly: false,
    folded: false,
    output: "",
    change: { path: `x\x1b]0;T\x07.txt`, kind: "create", oldText: null, newText: `${EVIL}\n` },
  });
  assert.match(tool, /x␛\]0;T␇\.txt/);
  assert.match(tool, /\+ a␛\]52;c;SGVsbG8=␇b/);
  const patch = entry({ kind: "patch", id: "p", text: `+${EVIL}` });
  assert.match(patch, /\+a␛\]52;c;SGVsbG8=␇b/);
});

Deno.test("TUI approval card: the bash command shows every escape, the reason none", () => {
  const out = assertSafe(rawFrame(
    <ApprovalCard
      request={{
        id: "a",
        callId: "c",
        tool: "bash",
        arguments: "{}",
        subject: `echo hi\x1b[2K\rrm -rf ~ \u202e`,
        preview: null,
        explanation: { decision: "ask", tier: "tier1", rule: null, reason: `risky ${EVIL}` },
        suggestedRule: null,
        mode: "ask",
      }}
      width={100}
      selected={0}
    />,
  ));
  assert.match(out, /echo hi␛\[2K␍rm -rf ~ <U\+202E>/);
  assert.match(out, /risky abcdefg/);
});

Deno.test("TUI question card and line-mode questions: escapes removed", async () => {
  const question = { header: EVIL, question: EVIL, options: [{ label: EVIL, description: EVIL }] };
  const out = assertSafe(rawFrame(<QuestionCard questions={[question]} flow={startFlow("q")} />));
  assert.match(out, /abcdefg/);
  let written = "";
  await answerOnLines([question], () => Promise.resolve(null), (text) => written += text);
  assertSafe(written);
  assert.match(written, /abcdefg/);
});

Deno.test("TUI completion menu: a file name's escapes show as marks", () => {
  const out = assertSafe(rawFrame(
    <CompletionMenuView
      items={[{ value: "@f", label: `@evil\x1b]0;T\x07.md`, detail: EVIL }]}
      selected={0}
      width={100}
    />,
  ));
  assert.match(out, /@evil␛\]0;T␇\.md/);
});

Deno.test("TUI status line: a model name from a workspace config cannot carry escapes", () => {
  const status = { ...initialState().status, model: `m\x1b]0;PWNED\x07` };
  assertSafe(statusText(status, { mode: "ask" }));
});

Deno.test("osc52() content cannot end the sequence early: base64 only between its opener and BEL", () => {
  const sequence = osc52(`${EVIL}\x1b\\\x9c`);
  // deno-lint-ignore no-control-regex
  assert.match(sequence, /^\x1b\]52;c;[A-Za-z0-9+/=]*\x07$/);
});
