// Ink's chalk reads FORCE_COLOR when first imported, so this file sets it before loading Ink.
import assert from "node:assert/strict";

Deno.env.set("FORCE_COLOR", "1");
const { render } = await import("ink-testing-library");
const { TranscriptEntryView } = await import("../../../src/frontends/tui/components/transcript.tsx");
const { ThemeContext } = await import("../../../src/frontends/tui/components/theme_context.ts");
const { makeTheme, resolveTheme } = await import("../../../src/frontends/tui/theme.ts");
type Entry = import("../../../src/frontends/tui/transcript_types.ts").TranscriptEntry;
const { loadMarkdown } = await import("../../../src/frontends/tui/markdown_loader.ts");
// The App loads the renderer before any answer reaches it; these tests render entries directly.
await loadMarkdown();
type Theme = import("../../../src/frontends/tui/theme.ts").Theme;

// deno-lint-ignore no-control-regex
const COLOUR_SGR = /\x1b\[(3\d|9\d|4\d|10\d)(;\d+)*m/;

function rawFrame(entry: Entry, theme: Theme): string {
  const view = render(
    <ThemeContext.Provider value={theme}>
      <TranscriptEntryView entry={entry} width={60} />
    </ThemeContext.Provider>,
  );
  const out = view.lastFrame() ?? "";
  view.unmount();
  view.cleanup();
  return out;
}

const ENTRIES: Entry[] = [
  {
    kind: "tool",
    id: "t",
    callId: "c",
    name: "edit_file",
    arguments: '{"path":"x"}',
    status: "ok",
    readOnly: false,
    folded: false,
    change: { path: "x", kind: "modify", oldText: "a\n", newText: "b\n" },
  },
  { kind: "answer", id: "a", text: "# Title\n\n```ts\nconst x = 1;\n```\n", streaming: false },
  { kind: "notice", id: "n", level: "error", text: "boom" },
  { kind: "todo", id: "d", items: [{ content: "x", status: "in_progress" }] },
];

Deno.test("a coloured theme colours diffs, code, notices and todos", () => {
  const theme = makeTheme("dark", true);
  for (const entry of ENTRIES) assert.match(rawFrame(entry, theme), COLOUR_SGR, entry.kind);
  const diff = rawFrame(ENTRIES[0]!, theme);
  // deno-lint-ignore no-control-regex
  assert.match(diff, /\x1b\[32m \+ b/);
  // deno-lint-ignore no-control-regex
  assert.match(diff, /\x1b\[31m - a/);
});

Deno.test("NO_COLOR prints no colour codes at all, even when colour is forced", () => {
  const theme = resolveTheme({ env: { NO_COLOR: "1" } });
  for (const entry of ENTRIES) assert.doesNotMatch(rawFrame(entry, theme), COLOUR_SGR, entry.kind);
});
