import assert from "node:assert/strict";
import { sessionLine, textMode } from "../../../src/frontends/run/text_mode.ts";
import { emptyTotals } from "../../../src/control/turn_outcome.ts";
import type { StopSignal } from "../../../src/control/mod.ts";

Deno.test("sessionLine() names the session, its cost, requests, tool calls and cache hits", () => {
  const totals = {
    ...emptyTotals(),
    cost: 0.0123,
    currency: "CNY",
    modelCalls: 3,
    toolCalls: 1,
    usage: {
      promptTokens: 1000,
      completionTokens: 10,
      cacheHitTokens: 870,
      cacheMissTokens: 130,
      reasoningTokens: 0,
    },
  };
  assert.equal(
    sessionLine("20261203-201500-1a2b3c4d", totals),
    "session 20261203-201500-1a2b3c4d · ¥0.0123 · 3 requests · 1 tool call · cache hit 87%",
  );
  assert.equal(sessionLine("s", emptyTotals()), "session s · 0 requests");
  assert.equal(
    sessionLine("s", { ...totals, subagentCalls: 2 }),
    "session s · ¥0.0123 · 3 requests · 2 subagent requests · 1 tool call · cache hit 87%",
  );
});

Deno.test("textMode() stops the run once when stdout's reader left, and says nothing of a broken pipe", () => {
  const stops: StopSignal[] = [];
  let stderr = "";
  let writes = 0;
  const text = textMode({
    write: () => {
      writes++;
      throw new Deno.errors.BrokenPipe("Broken pipe (os error 32)");
    },
    writeError: (t) => stderr += t,
    color: false,
    showThinking: false,
    print: false,
    progress: false,
    stop: (signal) => stops.push(signal),
  });
  text.render({ type: "text", text: "first line\n" });
  text.render({ type: "text", text: "second line\n" });
  text.render({
    type: "turn_done",
    subtype: "error_during_execution",
    result: "",
    error: { code: "output.broken_pipe", message: "Stopped: the reader of the output went away" },
  });
  text.finish("s", emptyTotals());
  assert.deepEqual(stops, ["SIGPIPE"]);
  assert.equal(writes, 1, "no write after the pipe closed");
  assert.equal(stderr, "session s · 0 requests\n");
});
