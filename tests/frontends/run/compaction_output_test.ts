import assert from "node:assert/strict";
import { createTextOutput } from "../../../src/frontends/run/text_output.ts";
import { Redactor } from "../../../src/frontends/run/event_lines.ts";
import type { ReasonixEvent } from "../../../src/control/events.ts";

const EVENT: ReasonixEvent = {
  type: "compaction",
  beforeTokens: 9000,
  afterTokens: 4000,
  reason: "context_limit",
};

Deno.test("createTextOutput() prints one dim line for a compaction on stderr", () => {
  let text = "";
  let stdout = "";
  const render = createTextOutput({
    write: (s) => stdout += s,
    writeInfo: (s) => text += s,
    color: true,
    showThinking: false,
    answerOnly: false,
  });
  render(EVENT);
  assert.equal(text, "\x1b[2m  · context compacted: ~9000 → ~4000 tokens\n\x1b[0m");
  assert.equal(stdout, "");
});

Deno.test("Redactor.line() keeps only the numbers of a compaction", () => {
  const line = new Redactor().line(EVENT);
  assert.deepEqual(line, {
    schema_version: 1,
    sequence: 1,
    kind: "compaction",
    before_tokens: 9000,
    after_tokens: 4000,
  });
});
