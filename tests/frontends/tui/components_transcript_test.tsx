import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import { TranscriptEntryView } from "../../../src/frontends/tui/components/transcript.tsx";
import { ThemeContext } from "../../../src/frontends/tui/components/theme_context.ts";
import { makeTheme, type Theme } from "../../../src/frontends/tui/theme.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";
import type { TranscriptEntry } from "../../../src/frontends/tui/transcript_types.ts";
import { loadMarkdown } from "../../../src/frontends/tui/markdown_loader.ts";

// The App loads the renderer before any answer reaches it; these tests render entries directly.
await loadMarkdown();

function frame(entry: TranscriptEntry, options: { width?: number; theme?: Theme } = {}): string {
  return stripVTControlCharacters(rawFrame(entry, options));
}

/** The frame with its escape codes (Ink colours only when FORCE_COLOR is set or stdout is a TTY). */
function rawFrame(entry: TranscriptEntry, options: { width?: number; theme?: Theme } = {}): string {
  const view = render(
    <ThemeContext.Provider value={options.theme ?? makeTheme("dark", false)}>
      <TranscriptEntryView entry={entry} width={options.width ?? 60} />
    </ThemeContext.Provider>,
  );
  const out = view.lastFrame() ?? "";
  view.unmount();
  view.cleanup();
  return out;
}

function tool(fields: Partial<Extract<TranscriptEntry, { kind: "tool" }>>): TranscriptEntry {
  return {
    kind: "tool",
    id: "t1",
    callId: "c1",
    name: "bash",
    arguments: JSON.stringify({ command: "ls -la src", timeout: 5 }),
    status: "ok",
    readOnly: true,
    folded: true,
    ...fields,
  };
}

Deno.test("reasoning folded is one line that says its length and the key that unfolds it", () => {
  const entry: TranscriptEntry = {
    kind: "reasoning",
    id: "r",
    text: "First I read the file.\nThen I edit it.\nThen I test.",
    streaming: false,
    folded: true,
  };
  assert.equal(frame(entry), "✻ Thinking… (3 lines · ctrl+o to expand)");
  assert.equal(frame({ ...entry, text: "", streaming: true }), "✻ Thinking…");
  const open = frame({ ...entry, folded: false });
  assert.match(open, /^✻ Thinking\n {2}First I read the file\.\n {2}Then I edit it\.\n {2}Then I test\.$/);
});

Deno.test("folded reasoning shows the model's terminal controls as marks, never raw", () => {
  const entry: TranscriptEntry = {
    kind: "reasoning",
    id: "r",
    text: "plan \x1b]0;pwned\x07\x1b[2J\nnext",
    streaming: true,
    folded: false,
  };
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(frame(entry), /\x1b|\x07/);
  assert.equal(frame({ ...entry, folded: true }), "✻ Thinking… (2 lines · ctrl+o to expand)");
});

Deno.test("an answer renders as Markdown at the given width", () => {
  const out = frame({
    kind: "answer",
    id: "a",
    text: "## Result\n\n- uses **bold** in a list\n\n```js\nlet x = 1\n```\n",
    streaming: false,
  });
  assert.match(out, /^Result$/m);
  assert.match(out, /\* uses bold in a list/);
  assert.match(out, /let x = 1/);
  assert.doesNotMatch(out, /##|\*\*|```/);
});

Deno.test("a tool card shows icon, name, key argument, duration and a folded result", () => {
  const output = ["line 1", "line 2", "line 3", "line 4", "line 5"].join("\n");
  const out = frame(tool({ durationMs: 1234, output }));
  const [head] = out.split("\n");
  assert.equal(head, "✓ bash ls -la src · 1.2s");
  assert.match(out, /⎿ line 1/);
  assert.match(out, /line 3/);
  assert.doesNotMatch(out, /line 4/);
  assert.match(out, /… 2 more lines/);
  const open = frame(tool({ durationMs: 1234, output, folded: false }));
  assert.match(open, /line 5/);
  assert.doesNotMatch(open, /more lines/);
});

Deno.test("a tool card shows running, failed and denied states", () => {
  assert.match(frame(tool({ status: "running" })), /^◌ bash ls -la src · running/);
  const failed = frame(tool({ status: "error", code: "tool.timeout", output: "took too long" }));
  assert.match(failed, /^✗ bash ls -la src · tool\.timeout/);
  assert.match(failed, /took too long/);
  assert.match(frame(tool({ status: "denied" })), /^⊘ bash/);
});

Deno.test("a tool card strips terminal control sequences from output", () => {
  const raw = rawFrame(tool({ output: "safe\x1b]0;pwned\x07 text\x1b[2J" }));
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(raw, /\x1b\]|\x07|\x1b\[2J/);
  const out = stripVTControlCharacters(raw);
  assert.match(out, /safe text/);
});

Deno.test("a tool card clips a long key argument to the width", () => {
  const out = frame(
    tool({ arguments: JSON.stringify({ path: "a/".repeat(80) + "file.ts" }), durationMs: 5 }),
    {
      width: 40,
    },
  );
  const head = out.split("\n")[0]!;
  assert.ok(head.length <= 40, head);
  assert.match(head, /… · 5ms$/);
});

Deno.test("an edit's diff folds to one line with its size; unfolded it has line numbers", () => {
  const oldText = "one\ntwo\nthree\nfour\n";
  const newText = "one\n2\nthree\nfour\nfive\n";
  const entry = tool({
    name: "edit_file",
    arguments: JSON.stringify({ path: "src/a.ts" }),
    output: "Edited src/a.ts: 1 replacement",
    change: { path: "src/a.ts", kind: "modify", oldText, newText },
  });
  const folded = frame(entry).split("\n");
  assert.equal(folded.length, 2, folded.join("\n"));
  assert.equal(folded[1], "  ⎿ diff src/a.ts +2 −1 (ctrl+o to expand)");
  const out = frame({ ...entry, folded: false } as TranscriptEntry);
  const lines = out.split("\n");
  assert.ok(lines.includes("  src/a.ts (modified)"), out);
  assert.ok(lines.includes("  @@ -1,4 +1,5 @@"), out);
  assert.ok(lines.includes("  1   one"), out);
  assert.ok(lines.includes("  2 - two"), out);
  assert.ok(lines.includes("  2 + 2"), out);
  assert.ok(lines.includes("  5 + five"), out);
});

Deno.test("an unfolded diff is shown whole; its path's terminal controls show as marks", () => {
  const newText = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n");
  const entry = tool({
    name: "write_file",
    change: { path: "big\x1b[2J.txt", kind: "create", oldText: null, newText },
  });
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(frame(entry), /\x1b/);
  assert.match(frame(entry), /diff big.*\.txt \+60 −0 \(ctrl\+o to expand\)/);
  const open = frame({ ...entry, folded: false } as TranscriptEntry);
  assert.match(open, /60 \+ line 60/);
  assert.doesNotMatch(open, /more diff lines/);
});

Deno.test("a todo list renders as a checklist with progress", () => {
  const out = frame({
    kind: "todo",
    id: "td",
    items: [
      { content: "Read the code", status: "completed" },
      { content: "Write the fix", status: "in_progress" },
      { content: "Run tests", status: "pending" },
    ],
  });
  assert.match(out, /^Todo · 1\/3 done/);
  assert.match(out, /☑ Read the code/);
  assert.match(out, /◐ Write the fix/);
  assert.match(out, /☐ Run tests/);
});

Deno.test("a usage receipt shows tokens, cache share and cost", () => {
  const out = frame({
    kind: "usage",
    id: "u",
    receipt: {
      promptTokens: 12345,
      hitTokens: 10000,
      missTokens: 2345,
      completionTokens: 678,
      hitRatio: 0.81,
      cost: 0.0042,
      currency: "USD",
    },
  });
  assert.equal(out.trim(), "12,345 in (81% cached) · 678 out · 0.0042 USD");
  const free = frame({
    kind: "usage",
    id: "u",
    receipt: {
      promptTokens: 1,
      hitTokens: 0,
      missTokens: 1,
      completionTokens: 1,
      hitRatio: 0,
      cost: null,
      currency: null,
    },
  });
  assert.equal(free.trim(), "1 in (0% cached) · 1 out");
});

Deno.test("notices and user messages render with their level", () => {
  assert.equal(
    frame({ kind: "notice", id: "n", level: "warning", text: "slow down" }),
    "⚠ warning: slow down",
  );
  assert.equal(frame({ kind: "notice", id: "n", level: "info", text: "hello" }), "ℹ hello");
  assert.equal(frame({ kind: "user", id: "u", text: "修复这个 bug" }), "› 修复这个 bug");
});

Deno.test("components follow the chosen language", () => {
  setLanguage("zh-CN");
  try {
    assert.match(
      frame({ kind: "todo", id: "td", items: [{ content: "x", status: "pending" }] }),
      /^待办 · 已完成 0\/1/,
    );
    assert.match(frame(tool({ status: "running" })), /运行中/);
  } finally {
    setLanguage("en");
  }
});

Deno.test("a running card shows the call's progress, a server's controls as marks", () => {
  setLanguage("en");
  const progress = "3/10 · copying \x1b[2J\u202Efiles";
  const out = rawFrame(tool({ name: "mcp__s__copy", status: "running", progress }), { width: 80 });
  assert.ok(!out.includes("\x1b[2J") && !out.includes("\u202E"), JSON.stringify(out));
  assert.match(stripVTControlCharacters(out), /◌ mcp__s__copy .* · 3\/10 · copying ␛\[2J<U\+202E>files/);
  assert.match(frame(tool({ status: "running" })), / · running/);
  assert.doesNotMatch(frame(tool({ status: "ok", durationMs: 20, progress: "3/10" })), /3\/10/);
});
