import assert from "node:assert/strict";
import { QuestionDesk } from "../../src/control/questions.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { type ControllerSession, withController } from "../support/controller_session.ts";

const QUESTION = {
  header: "Indent",
  question: "Tabs or spaces?",
  options: [{ label: "Tabs" }, { label: "Spaces", description: "two of them" }],
};
const ASK: ScriptedReply = {
  toolCalls: [{ name: "ask", arguments: JSON.stringify({ questions: [QUESTION] }) }],
};

function withSession(headless: boolean, body: (session: ControllerSession) => Promise<void>) {
  return withController(
    { script: [ASK, { content: "Noted." }], files: { "a.txt": "alpha\n" }, headless },
    body,
  );
}

function toolMessage(sim: DeepSeekSim): string {
  return sim.requests[1]!.json.messages.find((m: { role: string }) => m.role === "tool").content;
}

Deno.test("ask: an interactive session emits question_asked and the answer reaches the next request", async () => {
  await withSession(false, async ({ sim, controller, events }) => {
    controller.subscribe((event) => {
      if (event.type !== "question_asked") return;
      assert.deepEqual(controller.pendingQuestions().map((p) => p.id), [event.id]);
      assert.equal(controller.answerQuestion(event.id, [{ labels: ["Nope"] }]), false, "not an option");
      assert.equal(controller.answerQuestion(event.id, [{ labels: ["Spaces"] }]), true);
    });
    const outcome = await controller.runTurn("set up the formatter");
    assert.equal(outcome.result, "Noted.");
    assert.equal(toolMessage(sim), 'The user answered:\n- Indent: "Spaces"');
    const asked = events.find((e) => e.type === "question_asked");
    assert.deepEqual(asked?.type === "question_asked" && asked.questions, [QUESTION]);
    assert.ok(events.some((e) => e.type === "question_resolved" && e.outcome === "answered"));
    assert.deepEqual(controller.pendingQuestions(), []);
  });
});

Deno.test("ask: a declined ask tells the model the user declined", async () => {
  await withSession(false, async ({ sim, controller }) => {
    controller.subscribe((event) => {
      if (event.type === "question_asked") controller.answerQuestion(event.id, "declined");
    });
    await controller.runTurn("set up the formatter");
    assert.match(toolMessage(sim), /^The user declined to answer/);
  });
});

Deno.test("ask: headless (reasonix run) answers at once that no user answered", async () => {
  await withSession(true, async ({ sim, controller, events }) => {
    await controller.runTurn("set up the formatter");
    assert.match(toolMessage(sim), /^No user answered/);
    assert.ok(!events.some((e) => e.type === "question_asked"));
  });
});

Deno.test("ask: interrupt() cancels a waiting question and the turn ends", async () => {
  await withSession(false, async ({ controller, events }) => {
    controller.subscribe((event) => {
      if (event.type === "question_asked") queueMicrotask(() => controller.interrupt());
    });
    const outcome = await controller.runTurn("set up the formatter");
    assert.equal(outcome.subtype, "error_during_execution");
    assert.ok(events.some((e) => e.type === "question_resolved" && e.outcome === "cancelled"));
    assert.deepEqual(controller.pendingQuestions(), []);
  });
});

Deno.test("QuestionDesk answers unanswered when nobody listens, and checks the reply's shape", async () => {
  const desk = new QuestionDesk({ interactive: true });
  const signal = new AbortController().signal;
  assert.deepEqual(await desk.ask([QUESTION], signal), { kind: "unanswered" });
  desk.attach(() => {}, () => true);
  const multi = { ...QUESTION, multiSelect: true };
  const waiting = desk.ask([QUESTION, multi], signal);
  const id = desk.pending()[0]!.id;
  assert.equal(desk.answer(id, [{ labels: ["Tabs"] }]), false, "one answer per question");
  assert.equal(desk.answer(id, [{ labels: ["Tabs", "Spaces"] }, { labels: [] }]), false, "single choice");
  assert.equal(desk.answer(id, [{ labels: [], other: "  " }, { labels: ["Tabs"] }]), false, "blank text");
  assert.equal(desk.answer(id, [{ labels: [], other: " mixed " }, { labels: ["Tabs", "Spaces"] }]), true);
  assert.deepEqual(await waiting, {
    kind: "answered",
    answers: [{ labels: [], other: "mixed" }, { labels: ["Tabs", "Spaces"] }],
  });
  assert.equal(desk.answer(id, "declined"), false, "already settled");
});

Deno.test("ask: the answer is logged, and the snapshot replays it with the questions asked", async () => {
  await withSession(false, async ({ controller, events }) => {
    controller.subscribe((event) => {
      if (event.type === "question_asked") controller.answerQuestion(event.id, [{ labels: ["Spaces"] }]);
    });
    await controller.runTurn("set up the formatter");
    const live = events.find((e) => e.type === "question_resolved");
    assert.ok(live?.type === "question_resolved");
    assert.deepEqual(live, {
      type: "question_resolved",
      id: live.id,
      outcome: "answered",
      answers: [{ labels: ["Spaces"] }],
    });
    const replayed = controller.snapshot().find((e) => e.type === "question_resolved");
    assert.deepEqual(replayed && { ...replayed, seq: 0 }, {
      ...live,
      questions: [QUESTION],
      seq: 0,
    });
  });
});

Deno.test("ask: a question cut off by interrupt() replays as cancelled, with no answers", async () => {
  await withSession(false, async ({ controller }) => {
    controller.subscribe((event) => {
      if (event.type === "question_asked") queueMicrotask(() => controller.interrupt());
    });
    await controller.runTurn("set up the formatter");
    const replayed = controller.snapshot().filter((e) => e.type === "question_resolved");
    assert.deepEqual(replayed.map(({ seq: _, ...e }) => ({ ...e, id: "" })), [
      { type: "question_resolved", id: "", outcome: "cancelled", questions: [QUESTION] },
    ]);
  });
});
