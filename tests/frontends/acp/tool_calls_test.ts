import assert from "node:assert/strict";
import {
  approvalToolCall,
  planOf,
  toolCallEnd,
  toolKind,
  toolTitle,
} from "../../../src/frontends/acp/tool_calls.ts";
import { promptText } from "../../../src/frontends/acp/prompt.ts";
import { updatesOf } from "../../../src/frontends/acp/updates.ts";

Deno.test("toolKind() maps the built-in tools to ACP kinds and anything else to other", () => {
  const kinds = [
    "read_file",
    "grep",
    "edit_file",
    "move_file",
    "bash",
    "web_fetch",
    "todo_write",
    "mcp__x__y",
  ]
    .map(toolKind);
  assert.deepEqual(kinds, ["read", "search", "edit", "move", "execute", "fetch", "think", "other"]);
});

Deno.test("toolTitle() names the subject on one line, without control characters, cut when long", () => {
  assert.equal(toolTitle("bash", '{"command":"npm\\n test\\u001b[2J"}'), "bash: npm test");
  assert.equal(toolTitle("ls", "not json"), "ls");
  assert.equal(toolTitle("bash", JSON.stringify({ command: "x".repeat(500) })).length, 200);
});

Deno.test("toolCallEnd() carries a diff for file changes with absolute paths, text otherwise", () => {
  const base = {
    type: "tool_result" as const,
    callId: "c",
    name: "edit_file",
    ok: true,
    durationMs: 1,
    readOnly: false,
  };
  const diff = toolCallEnd(
    { ...base, output: "edited", data: { kind: "diff", path: "src/a.ts", before: "a", after: "b" } },
    "/ws",
  );
  assert.deepEqual(diff, {
    sessionUpdate: "tool_call_update",
    toolCallId: "c",
    status: "completed",
    content: [{ type: "diff", path: "/ws/src/a.ts", oldText: "a", newText: "b" }],
    locations: [{ path: "/ws/src/a.ts" }],
    rawOutput: { output: "edited" },
  });
  const failed = toolCallEnd({ ...base, ok: false, output: "Error [x]: no", code: "x" }, "/ws");
  assert.deepEqual(failed, {
    sessionUpdate: "tool_call_update",
    toolCallId: "c",
    status: "failed",
    content: [{ type: "content", content: { type: "text", text: "Error [x]: no" } }],
    rawOutput: { output: "Error [x]: no", code: "x" },
  });
  assert.equal(planOf({ ...base, output: "" }), null);
});

Deno.test("approvalToolCall() shows the exact change the call will write", () => {
  const call = approvalToolCall({
    id: "approval-1",
    callId: "c",
    tool: "write_file",
    arguments: '{"path":"n.txt","content":"x"}',
    subject: "n.txt",
    preview: { path: "n.txt", kind: "create", oldText: null, newText: "x" },
    explanation: { decision: "ask", tier: "write", rule: null, reason: "writes" },
    suggestedRule: "write_file(n.txt)",
    mode: "ask",
  }, "/ws");
  assert.deepEqual(call.content, [{ type: "diff", path: "/ws/n.txt", oldText: null, newText: "x" }]);
  assert.deepEqual(call.locations, [{ path: "/ws/n.txt" }]);
  assert.equal(call.status, "pending");
});

Deno.test("promptText() makes workspace links mentions and appends embedded context", () => {
  const text = promptText([
    { type: "text", text: "fix" },
    { type: "resource_link", uri: "file:///ws/src/my%20file.ts", name: "my file.ts" },
    { type: "resource_link", uri: "file:///etc/passwd", name: "passwd" },
    { type: "resource", resource: { uri: "file:///ws/b.ts", text: "const b = 1;" } },
  ], "/ws");
  assert.equal(
    text,
    'fix @src/my\\ file.ts file:///etc/passwd\n\n<context source="@b.ts">\nconst b = 1;\n</context>',
  );
});

Deno.test("updatesOf() shows a replayed user turn, not a live one (the editor shows what it sent)", () => {
  const turn = { type: "turn_started" as const, turn: 1, text: "hi" };
  assert.deepEqual(updatesOf(turn, { root: "/ws", replay: true }), [
    { sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" } },
  ]);
  assert.deepEqual(updatesOf(turn, { root: "/ws", replay: false }), []);
});
