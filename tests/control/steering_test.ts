/**
 * The Controller's steering queue: nothing is taken between turns, text a turn never delivered (it was
 * interrupted) comes back as a warning, and a steering message never counts as a new turn.
 */
import assert from "node:assert/strict";
import { opensTurn } from "../../src/agent/compaction_plan.ts";
import { isSteerMessage, steerMessage } from "../../src/agent/steer.ts";
import { withController } from "../support/controller_session.ts";

Deno.test("Controller.steer(): refused between turns; an interrupted turn hands undelivered text back", async () => {
  await withController({
    script: [{ reasoning: "slow ".repeat(200), chunkSize: 5, tokensPerSecond: 10 }, { content: "ok" }],
  }, async ({ sim, controller, events }) => {
    const { promise: streaming, resolve } = Promise.withResolvers<void>();
    controller.subscribe((event) => {
      if (event.type === "reasoning") resolve();
    });
    assert.equal(controller.steer("nobody is working"), false);
    const turn = controller.runTurn("think");
    await streaming;
    assert.equal(controller.steer("   "), false, "blank text is not steering");
    assert.equal(controller.steer("never mind"), true);
    controller.interrupt();
    const outcome = await turn;
    assert.equal(outcome.error?.code, "turn.interrupted");
    const warning = events.find((event) => event.type === "warning");
    assert.ok(warning && warning.type === "warning");
    assert.match(warning.message, /before this steering reached the model.*"never mind"/);
    assert.equal(sim.requests.length, 1);
    assert.equal(controller.steer("after the turn"), false);
  });
});

Deno.test("steerMessage(): a steering message is recognised and does not open a turn", () => {
  const content = steerMessage(["one", "two"]);
  assert.ok(isSteerMessage(content));
  assert.match(content, /\n\none\n\ntwo$/);
  assert.equal(opensTurn({ role: "user", content }), false);
  assert.equal(opensTurn({ role: "user", content: "one" }), true);
});
