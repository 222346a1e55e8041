import assert from "node:assert/strict";
import type { ChatMessage } from "../../src/provider/provider.ts";
import {
  closingMessages,
  INTERRUPTED_RESULT,
  interruptedTail,
  repairHistory,
} from "../../src/session/repair.ts";

const SYSTEM: ChatMessage = { role: "system", content: "s" };
const CONTEXT: ChatMessage = { role: "user", content: '<session-context version="1">\n</session-context>' };
const USER: ChatMessage = { role: "user", content: "u" };
const DONE: ChatMessage = { role: "assistant", content: "d" };

function calls(...ids: string[]): ChatMessage {
  return {
    role: "assistant",
    content: null,
    reasoning_content: "think",
    tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "bash", arguments: "{}" } })),
  };
}

function result(id: string, content = "ok"): ChatMessage {
  return { role: "tool", content, tool_call_id: id, name: "bash" };
}

Deno.test("repairHistory() leaves a valid history as it is", () => {
  const history = [SYSTEM, USER, calls("a", "b"), result("b"), result("a"), {
    role: "assistant",
    content: "done",
  }];
  assert.deepEqual(repairHistory(history as ChatMessage[]), history);
});

Deno.test("repairHistory() answers a dangling call right after its assistant message", () => {
  const history: ChatMessage[] = [SYSTEM, USER, calls("a", "b"), result("a"), USER];
  assert.deepEqual(repairHistory(history), [
    SYSTEM,
    USER,
    calls("a", "b"),
    result("a"),
    { role: "tool", content: INTERRUPTED_RESULT, tool_call_id: "b", name: "bash" },
    USER,
  ]);
});

Deno.test("repairHistory() moves a result stored after a later user message, drops orphans", () => {
  const history: ChatMessage[] = [SYSTEM, USER, calls("a"), USER, result("a", "late"), result("zz")];
  assert.deepEqual(repairHistory(history), [SYSTEM, USER, calls("a"), result("a", "late"), USER]);
});

Deno.test("repairHistory() does not take a later turn's result for a reused call id", () => {
  const history: ChatMessage[] = [USER, calls("a"), USER, calls("a"), result("a", "second")];
  assert.deepEqual(repairHistory(history), [
    USER,
    calls("a"),
    { role: "tool", content: INTERRUPTED_RESULT, tool_call_id: "a", name: "bash" },
    USER,
    calls("a"),
    result("a", "second"),
  ]);
});

Deno.test("closingMessages() gives the note an empty reasoning_content only in a turn that called tools", () => {
  const plain = closingMessages([SYSTEM, USER], { reason: "x", result: "Not run: x" });
  assert.deepEqual(plain, [{ role: "assistant", content: "[This turn ended without a reply: x]" }]);
  const tooled = closingMessages([SYSTEM, USER, calls("a", "b"), result("a")], {
    reason: "x",
    result: "Not run: x",
  });
  assert.deepEqual(tooled, [
    { role: "tool", content: "Not run: x", tool_call_id: "b", name: "bash" },
    { role: "assistant", content: "[This turn ended without a reply: x]", reasoning_content: "" },
  ]);
});

Deno.test("interruptedTail() closes a turn killed before its first reply with a note, so roles alternate", () => {
  const tail = interruptedTail([SYSTEM, CONTEXT, USER]);
  assert.deepEqual(tail, [{
    role: "assistant",
    content: "[This turn ended without a reply: the process running it stopped]",
  }]);
  assert.deepEqual(interruptedTail([SYSTEM, CONTEXT]), [], "the session context is not a turn");
  const summary: ChatMessage = { role: "user", content: "<compacted-summary>\ns\n</compacted-summary>" };
  assert.deepEqual(interruptedTail([SYSTEM, CONTEXT, summary]), [], "nor is a compaction summary");
  const later = interruptedTail([SYSTEM, CONTEXT, USER, calls("a"), result("a"), DONE, USER]);
  assert.deepEqual(later, tail, "a later turn that has not called tools needs no reasoning_content");
});

Deno.test("interruptedTail() closes a turn that called tools and has no reply", () => {
  assert.deepEqual(interruptedTail([SYSTEM, CONTEXT, USER, DONE]), []);
  assert.deepEqual(
    interruptedTail([SYSTEM, USER, calls("a"), result("a"), { role: "assistant", content: "d" }]),
    [],
  );
  const tail = interruptedTail([SYSTEM, USER, calls("a")]);
  assert.equal(tail.length, 2);
  assert.equal(tail[0]!.content, INTERRUPTED_RESULT);
  assert.equal(tail[1]!.role, "assistant");
  assert.equal((tail[1] as { reasoning_content?: string }).reasoning_content, "");
});
