import assert from "node:assert/strict";
import { toolOutcome } from "../../../src/frontends/run/tool_outcome.ts";
import type { ReasonixEvent } from "../../../src/control/mod.ts";

type Result = Extract<ReasonixEvent, { type: "tool_result" }>;

function result(name: string, data: Result["data"], ok = true, output = ""): Result {
  return { type: "tool_result", callId: "c", name, ok, output, durationMs: 1, readOnly: false, data };
}

const bash = (more: Partial<Extract<Result["data"], { kind: "bash" }>>) =>
  result("bash", {
    kind: "bash",
    exitCode: 0,
    durationMs: 1,
    timedOut: false,
    signal: null,
    lines: 3,
    ...more,
  });

Deno.test("toolOutcome() tells how a command ended and how much it printed", () => {
  const args = `{"command":"node test.js"}`;
  assert.deepEqual(toolOutcome(bash({}), args), { ok: true, text: "✓ bash node test.js → exit 0, 3 lines" });
  assert.deepEqual(toolOutcome(bash({ exitCode: 1, lines: 1 }), args), {
    ok: false,
    text: "✗ bash node test.js → exit 1, 1 line",
  });
  assert.equal(
    toolOutcome(bash({ exitCode: null, timedOut: true }), args).text,
    "✗ bash node test.js → timed out, 3 lines",
  );
  assert.equal(
    toolOutcome(bash({ exitCode: 1, sandboxDenied: true }), `{"command":"touch /etc/x"}`).text,
    "✗ bash touch /etc/x → exit 1, 3 lines, blocked by sandbox",
  );
});

Deno.test("toolOutcome() gives each tool's own figures", () => {
  const read = result("read_file", { kind: "read", path: "src/a.ts", lines: 40, offset: 0, totalLines: 120 });
  assert.equal(toolOutcome(read, `{"path":"src/a.ts"}`).text, "✓ read_file src/a.ts → 40 lines of 120");
  const edit = result("edit_file", {
    kind: "diff",
    path: "a.ts",
    before: "a\nb\nc\n",
    after: "a\nB\nc\nd\n",
  });
  assert.equal(toolOutcome(edit, `{"path":"a.ts"}`).text, "✓ edit_file a.ts → +2 −1");
  const created = result("write_file", { kind: "diff", path: "n.ts", before: null, after: "x\ny\n" });
  assert.equal(toolOutcome(created, undefined).text, "✓ write_file n.ts → created, +2 −0");
  const grep = result("grep", { kind: "search", pattern: "TODO", matches: 7, files: 3 });
  assert.equal(
    toolOutcome(grep, `{"pattern":"TODO","path":"src"}`).text,
    "✓ grep TODO → 7 matches in 3 files",
  );
  const glob = result("glob", { kind: "search", pattern: "**/*.ts", matches: 1, files: 1 });
  assert.equal(toolOutcome(glob, `{"pattern":"**/*.ts"}`).text, "✓ glob **/*.ts → 1 file");
  assert.equal(toolOutcome(result("wait", undefined), `{"job_id":"bash-1"}`).text, "✓ wait bash-1 → done");
  const history = result("history", { kind: "search", pattern: "port", matches: 3, files: 2 });
  assert.equal(toolOutcome(history, `{"query":"port"}`).text, "✓ history port → 3 matches in 2 sessions");
});

Deno.test("toolOutcome() tells a failure by its reason, on one line, without terminal controls", () => {
  const coded = {
    ...result("read_file", undefined, false, 'Error [tool.not_found]: Cannot access "x"'),
    code: "tool.not_found",
  };
  assert.equal(toolOutcome(coded, `{"path":"x"}`).text, '✗ read_file: Cannot access "x"');
  const failed = result("edit_file", undefined, false, "old_string not found\x1b[2J\nin a.ts");
  assert.deepEqual(toolOutcome(failed, `{"path":"a.ts"}`), {
    ok: false,
    text: "✗ edit_file: old_string not found in a.ts",
  });
  const sneaky = toolOutcome(bash({}), JSON.stringify({ command: "echo \x1b]0;title\x07 \x9b2J" }));
  for (const control of ["\x1b", "\x07", "\x9b"]) assert.ok(!sneaky.text.includes(control), sneaky.text);
});
