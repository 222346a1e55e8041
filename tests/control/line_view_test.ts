/**
 * A face sees the conversation as it now stands: the turns of the current line up to its head, never
 * the turns a rewind or a branch switch left behind; a live move redraws every attached face.
 */
import assert from "node:assert/strict";
import type { ReasonixEvent } from "../../src/control/events.ts";
import { type Controller, withController } from "../support/controller_session.ts";

function withAnswers(
  answers: string[],
  body: (controller: Controller, reboot: () => Promise<Controller>) => Promise<void>,
) {
  return withController({
    script: answers.map((content) => ({ reasoning: "r", content })),
    files: { "a.txt": "alpha\n" },
    flags: { permissionMode: "yolo" },
    listen: false,
  }, (session) => body(session.controller, () => session.reboot()));
}

async function turn(controller: Controller, text: string): Promise<void> {
  const outcome = await controller.runTurn(text);
  assert.equal(outcome.subtype, "success", outcome.result);
}

function attach(controller: Controller): ReasonixEvent[] {
  const events: ReasonixEvent[] = [];
  controller.subscribe((event) => events.push(event), {})();
  return events;
}

const userTurns = (events: ReasonixEvent[]) =>
  events.flatMap((event) => event.type === "turn_started" ? [event.text] : []);
const answers = (events: ReasonixEvent[]) =>
  events.flatMap((event) => event.type === "text" ? [event.text] : []);
const notices = (events: ReasonixEvent[]) =>
  events.flatMap((event) => event.type === "notice" ? [event.message] : []);

Deno.test("Controller.subscribe() after a conversation rewind shows only the turns before it", async () => {
  await withAnswers(["one", "two", "three", "again"], async (controller, reboot) => {
    await turn(controller, "first");
    await turn(controller, "second");
    await turn(controller, "third");
    const outcome = await controller.rewind({ turn: 2, scope: "conversation" });
    assert.equal(outcome.status, "done");
    let events = attach(controller);
    assert.deepEqual(userTurns(events), ["first"]);
    assert.deepEqual(answers(events), ["one"]);
    assert.ok(notices(events).includes("2 turns on before-rewind-1 not shown · /tree lists the branches"));
    await turn(controller, "second again");
    events = attach(await reboot());
    assert.deepEqual(userTurns(events), ["first", "second again"]);
    assert.deepEqual(answers(events), ["one", "again"]);
  });
});

Deno.test("Controller.subscribe() after /branch and /switch shows the switched-to line only", async () => {
  await withAnswers(["hello", "on b", "on main"], async (controller) => {
    await turn(controller, "hi");
    await controller.branches.fork("b");
    await turn(controller, "take path b");
    await controller.branches.switchTo("main");
    let events = attach(controller);
    assert.deepEqual(userTurns(events), ["hi"]);
    assert.deepEqual(answers(events), ["hello"]);
    assert.ok(notices(events).includes("1 turn on b not shown · /tree lists the branches"));
    await turn(controller, "stay on main");
    await controller.branches.switchTo("b");
    events = attach(controller);
    assert.deepEqual(userTurns(events), ["hi", "take path b"]);
    assert.deepEqual(answers(events), ["hello", "on b"]);
  });
});

Deno.test("Controller.subscribe() counts the cost of turns left behind in the session figures", async () => {
  await withAnswers(["hello", "on b"], async (controller) => {
    await turn(controller, "hi");
    await controller.branches.fork("b");
    await turn(controller, "take path b");
    const whole = attach(controller);
    await controller.branches.switchTo("main");
    const line = attach(controller);
    const prompt = (events: ReasonixEvent[]) => {
      const start = events[0];
      assert.equal(start?.type, "session_started");
      const before = start.type === "session_started" ? start.figures?.promptTokens ?? 0 : 0;
      return events.reduce((sum, e) => sum + (e.type === "usage" ? e.usage.promptTokens : 0), before);
    };
    assert.equal(prompt(line), prompt(whole));
  });
});

Deno.test("a live /switch or rewind sends attached faces a redraw and the new line's snapshot", async () => {
  await withAnswers(["hello", "on b", "on main"], async (controller) => {
    await turn(controller, "hi");
    await controller.branches.fork("b");
    await turn(controller, "take path b");
    const live: ReasonixEvent[] = [];
    const stop = controller.subscribe((event) => live.push(event));
    await controller.branches.switchTo("main");
    assert.equal(live[0]?.type, "session_started");
    assert.equal(live[0]?.type === "session_started" && live[0].redraw, true);
    assert.deepEqual(userTurns(live), ["hi"]);
    live.length = 0;
    await turn(controller, "on main now");
    await controller.rewind({ turn: 2, scope: "conversation" });
    assert.equal(live.filter((e) => e.type === "session_started" && e.redraw).length, 1);
    const redrawn = live.slice(live.findIndex((e) => e.type === "session_started"));
    assert.deepEqual(userTurns(redrawn), ["hi"]);
    stop();
  });
});

Deno.test("Controller.subscribe({fromSeq}) redraws a face that reconnects after the conversation moved", async () => {
  await withAnswers(["hello", "on b"], async (controller) => {
    await turn(controller, "hi");
    await controller.branches.fork("b");
    await turn(controller, "take path b");
    const seen = controller.lastSeq;
    await controller.branches.switchTo("main");
    const events: ReasonixEvent[] = [];
    controller.subscribe((event) => events.push(event), { fromSeq: seen })();
    assert.equal(events[0]?.type === "session_started" && events[0].redraw, true);
    assert.deepEqual(userTurns(events), ["hi"]);
  });
});
