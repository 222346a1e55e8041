import assert from "node:assert/strict";
import { conversationMarkdown } from "../../src/control/export_markdown.ts";
import type { ChatMessage } from "../../src/provider/provider.ts";
import { SUMMARY_OPEN } from "../../src/agent/compaction.ts";

const AT = new Date("2026-01-02T03:04:05Z");

Deno.test("conversationMarkdown() renders turns, summarises tool calls and leaves out the prompt", () => {
  const history: ChatMessage[] = [
    { role: "system", content: "SYSTEM PROMPT TEXT" },
    { role: "user", content: `<session-context version="1">\nWorkspace: /w\n</session-context>` },
    { role: "user", content: "read a.txt\n\n<turn-context>\nThe date is now 2026-01-02\n</turn-context>" },
    {
      role: "assistant",
      content: "",
      reasoning_content: "private thoughts",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "read_file", arguments: `{"path":"a.txt"}` } },
        { id: "c2", type: "function", function: { name: "bash", arguments: `{"command":"ls\\n-la"}` } },
      ],
    },
    { role: "tool", tool_call_id: "c1", name: "read_file", content: "alpha\nbeta" },
    { role: "assistant", content: "It says **alpha**." },
  ];
  const markdown = conversationMarkdown(history, {
    sessionId: "s-1",
    model: "m",
    title: null,
    exportedAt: AT,
  });
  assert.equal(
    markdown,
    [
      "# Reasonix session s-1",
      "Session s-1 · model m · exported 2026-01-02T03:04:05.000Z",
      "> The system prompt and the session-context message are not included.",
      "## You",
      "read a.txt",
      "- `read_file` `a.txt` — 2 lines of output\n- `bash` `ls` — no result",
      "## Assistant",
      "It says **alpha**.",
    ].join("\n\n") + "\n",
  );
});

Deno.test("conversationMarkdown() uses the title and shows a compacted summary as a quote", () => {
  const history: ChatMessage[] = [
    { role: "system", content: "S" },
    { role: "user", content: `${SUMMARY_OPEN}\nWe fixed the lexer.\n</compacted-summary>` },
  ];
  const markdown = conversationMarkdown(history, {
    sessionId: "s",
    model: "m",
    title: "Lexer",
    exportedAt: AT,
  });
  assert.match(markdown, /^# Lexer\n/);
  assert.match(
    markdown,
    /## Summary of the earlier conversation\n\n> <compacted-summary>\n> We fixed the lexer\./,
  );
});

Deno.test("conversationMarkdown() shows a use_capability call as the tool it ran", () => {
  const proxied = `{"action":"call","capability_id":"tool:glob","arguments":{"pattern":"*.md"}}`;
  const history: ChatMessage[] = [
    { role: "user", content: "find docs" },
    {
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "use_capability", arguments: proxied } },
        { id: "c2", type: "function", function: { name: "use_capability", arguments: `{"action":"list"}` } },
      ],
    },
    { role: "tool", tool_call_id: "c1", name: "use_capability", content: "a.md" },
  ];
  const markdown = conversationMarkdown(history, { sessionId: "s", model: "m", title: null, exportedAt: AT });
  assert.match(markdown, /- `glob` `\*\.md` — 1 lines? of output\n- `use_capability` `list` — no result/);
});
