import assert from "node:assert/strict";
import type { bootController } from "../../src/control/boot.ts";
import type { ReasonixEvent } from "../../src/control/events.ts";
import { loadSession } from "../../src/session/store.ts";
import { STEP_LIMIT_NOTE } from "../../src/agent/loop.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";

async function withSession(
  script: ScriptedReply[],
  options: { maxSteps?: number; permissionMode?: string },
  body: (
    ctx: {
      sim: DeepSeekSim;
      controller: Awaited<ReturnType<typeof bootController>>;
      events: ReasonixEvent[];
    },
  ) => Promise<void>,
) {
  await withController({
    script,
    files: { "a.txt": "alpha\n" },
    flags: {
      ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
      ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
    },
  }, async ({ sim, controller, events }) => {
    await body({ sim, controller, events });
  });
}

const READ = { toolCalls: [{ name: "read_file", arguments: `{"path":"a.txt"}` }] };

Deno.test("Controller.runTurn() stops at --max-steps after asking the model to answer", async () => {
  await withSession([READ, READ, READ], { maxSteps: 2 }, async ({ sim, controller }) => {
    const outcome = await controller.runTurn("loop forever");
    assert.equal(outcome.subtype, "error_max_steps");
    assert.equal(outcome.error?.code, "turn.max_steps");
    assert.equal(sim.requests.length, 3);
    const lastRequest = sim.requests[2]!.json.messages;
    assert.equal(lastRequest.at(-1).content, STEP_LIMIT_NOTE);
    const session = await loadSession(controller.sessionFile);
    const last = session.messages.at(-1)!;
    assert.equal(last.role, "tool", "the unrun call still gets a result");
    assert.match(last.content, /step limit/);
  });
});

Deno.test("Controller.runTurn() answers with the model's text and counts usage and tools", async () => {
  await withSession([READ, { content: "alpha it is" }], {}, async ({ sim, controller, events }) => {
    const outcome = await controller.runTurn("what is in a.txt?");
    assert.deepEqual(outcome, { subtype: "success", result: "alpha it is" });
    const totals = controller.totals();
    assert.equal(totals.modelCalls, 2);
    assert.equal(totals.toolCalls, 1);
    assert.deepEqual(totals.toolCallsByName, { read_file: 1 });
    assert.equal(totals.usage.promptTokens, sim.stats().promptTokens);
    assert.equal(totals.currency, "CNY");
    const kinds = events.map((e) => e.type);
    assert.deepEqual(kinds.filter((k) => k !== "text" && k !== "reasoning"), [
      "turn_started",
      "message",
      "usage",
      "tool_call",
      "tool_result",
      "message",
      "usage",
      "turn_done",
    ]);
  });
});

Deno.test("Controller keeps the session valid when the provider fails after a tool round", async () => {
  const fail: ScriptedReply = { fault: { kind: "status", status: 503 } };
  await withSession([READ, fail, fail, fail, fail, { content: "back" }], {}, async ({ controller }) => {
    const failed = await controller.runTurn("read it");
    assert.equal(failed.error?.code, "provider.server");
    const session = await loadSession(controller.sessionFile);
    assert.deepEqual(session.messages.slice(-3).map((m) => m.role), ["assistant", "tool", "assistant"]);
    const again = await controller.runTurn("try again");
    assert.equal(again.result, "back");
  });
});

Deno.test("Controller.close() kills background jobs still running", async () => {
  const start = {
    toolCalls: [{ name: "bash", arguments: `{"command":"sleep 100","run_in_background":true}` }],
  };
  await withSession(
    [start, { content: "started" }],
    { permissionMode: "auto" },
    async ({ controller, events }) => {
      await controller.runTurn("start a job");
      const result = events.find((e) => e.type === "tool_result");
      assert.ok(result && result.type === "tool_result" && result.ok, "the job started");
      const pid = Number(/pid (\d+)/.exec(result.output)?.[1]);
      assert.ok(pid > 0, result.output);
      await controller.close();
      const alive = await Deno.stat(`/proc/${pid}`).then(() => true, () => false);
      if (alive) {
        assert.match(
          await Deno.readTextFile(`/proc/${pid}/stat`),
          /^\d+ \([^)]*\) Z/,
          "only a zombie may remain",
        );
      }
    },
  );
});
