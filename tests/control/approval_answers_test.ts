import assert from "node:assert/strict";
import { join } from "node:path";
import type { bootController } from "../../src/control/boot.ts";
import { Approvals } from "../../src/control/approvals.ts";
import type { ReasonixEvent } from "../../src/control/events.ts";
import type { SessionRecord } from "../../src/session/store.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";

type Controller = Awaited<ReturnType<typeof bootController>>;

interface Session {
  sim: DeepSeekSim;
  controller: Controller;
  events: ReasonixEvent[];
  ws: string;
  home: string;
}

async function withSession(script: ScriptedReply[], body: (session: Session) => Promise<void>) {
  await withController(
    { script, files: { "a.txt": "alpha\n" }, headless: false, flags: {} },
    async ({ sim, controller, events, home, ws }) => {
      await body({ sim, controller, events, ws, home });
    },
  );
}

/** Answers each approval card as a person would, after `delayMs`. */
function answerEach(
  controller: Controller,
  answer: { choice: "allow_once" | "allow_always" | "deny"; reason?: string; delayMs?: number },
) {
  controller.subscribe((event) => {
    if (event.type !== "approval_requested") return;
    setTimeout(
      () => void controller.answerApproval(event.request.id, answer.choice, answer.reason),
      answer.delayMs ?? 0,
    );
  });
}

async function records(controller: Controller): Promise<SessionRecord[]> {
  const text = await Deno.readTextFile(controller.sessionFile);
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

const WRITE = { toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi\\n"}` }] };
const BASH = { toolCalls: [{ name: "bash", arguments: `{"command":"echo hi > b.txt"}` }] };
const DONE = { content: "done" };

Deno.test("Controller.answerApproval() sends a deny reason to the model in the tool message bytes", async () => {
  await withSession([WRITE, DONE], async ({ sim, controller, events, ws }) => {
    const reason = `write it to "y.txt" instead\nand keep a.txt`;
    answerEach(controller, { choice: "deny", reason: `  ${reason} ` });
    await controller.runTurn("write x.txt");
    await assert.rejects(Deno.stat(join(ws, "x.txt")), Deno.errors.NotFound);
    const expected = `Error [permission.denied]: The user declined this "write_file" call and said: ${
      JSON.stringify(reason)
    }`;
    const tool = sim.requests[1]!.json.messages.find((message: { role: string }) => message.role === "tool");
    assert.equal(tool.content, expected);
    assert.ok(sim.requests[1]!.body.includes(JSON.stringify(expected)), "the raw request carries the reason");
    const resolved = events.find((event) => event.type === "approval_resolved");
    assert.deepEqual({ ...resolved, id: "" }, { type: "approval_resolved", id: "", choice: "deny", reason });
    const logged = (await records(controller)).find((record) =>
      record.type === "entry" && record.entry.kind === "approval_answered"
    );
    assert.ok(logged?.type === "entry");
    assert.deepEqual({ ...logged.entry, id: "" }, {
      kind: "approval_answered",
      id: "",
      choice: "deny",
      reason,
    });
  });
});

Deno.test("Controller.answerApproval() ignores a blank deny reason", async () => {
  await withSession([WRITE, DONE], async ({ sim, controller, events }) => {
    answerEach(controller, { choice: "deny", reason: "   " });
    await controller.runTurn("write x.txt");
    const tool = sim.requests[1]!.json.messages.find((message: { role: string }) => message.role === "tool");
    assert.equal(tool.content, `Error [permission.denied]: The user declined this "write_file" call`);
    const answered = events.filter((event) => event.type === "approval_resolved");
    assert.deepEqual(answered.map((event) => "reason" in event), [false]);
  });
});

Deno.test("Controller says where an always-allow rule was saved", async () => {
  await withSession([WRITE, DONE], async ({ controller, events, home }) => {
    answerEach(controller, { choice: "allow_always" });
    await controller.runTurn("write x.txt");
    const notices = events.filter((event) => event.type === "notice").map((event) => event.message);
    const file = join(home, "trust.json");
    assert.deepEqual(notices, [`Always allowing write_file(x.txt) in this workspace — saved to ${file}`]);
    const saved = JSON.parse(await Deno.readTextFile(file));
    assert.equal(Object.values(saved.permissionGrants).flat().length, 1);
    const logged = (await records(controller)).some((record) =>
      record.type === "entry" && record.entry.kind === "notice" && record.entry.text === notices[0]
    );
    assert.ok(logged, "the notice is in the session log, so a resumed session shows it");
  });
});

Deno.test("Controller reports a tool's time without the time its approval waited", async () => {
  await withSession([BASH, DONE], async ({ controller, events, ws }) => {
    answerEach(controller, { choice: "allow_once", delayMs: 1500 });
    const started = performance.now();
    await controller.runTurn("write b.txt");
    assert.ok(performance.now() - started >= 1500, "the approval did wait");
    // The bash call itself takes milliseconds; under 1 s leaves room for a loaded machine.
    assert.equal(await Deno.readTextFile(join(ws, "b.txt")), "hi\n");
    const result = events.find((event) => event.type === "tool_result");
    assert.ok(result?.type === "tool_result" && result.ok, JSON.stringify(result));
    assert.ok(result.durationMs < 1000, `tool_result durationMs ${result.durationMs}`);
    const stored = (await records(controller)).find((record) => record.type === "message" && record.tool);
    assert.ok(stored?.type === "message" && stored.tool);
    assert.ok(stored.tool.durationMs < 1000, `stored durationMs ${stored.tool.durationMs}`);
  });
});

Deno.test("Controller reports a denied call's time without the wait", async () => {
  await withSession([BASH, DONE], async ({ controller, events }) => {
    answerEach(controller, { choice: "deny", delayMs: 1200 });
    await controller.runTurn("write b.txt");
    const result = events.find((event) => event.type === "tool_result");
    assert.ok(result?.type === "tool_result" && !result.ok);
    assert.ok(result.durationMs < 1000, `tool_result durationMs ${result.durationMs}`);
  });
});

Deno.test("Approvals.answer() keeps a reason only with deny", async () => {
  const events: ReasonixEvent[] = [];
  const desk = new Approvals({ mode: "ask" });
  desk.attach((event) => events.push(event), () => true);
  const ask = {
    callId: "c1",
    tool: "bash",
    arguments: "{}",
    subject: "ls",
    preview: null,
    explanation: { decision: "ask" as const, tier: "read" as const, rule: null, reason: "r" },
    suggestedRule: null,
  };
  const allowed = desk.request(ask);
  await desk.answer(desk.pending()[0]!.id, "allow_once", "go ahead");
  assert.deepEqual(await allowed, { choice: "allow_once" });
  const denied = desk.request(ask);
  await desk.answer(desk.pending()[0]!.id, "deny", "x".repeat(3000));
  assert.deepEqual(await denied, { choice: "deny", reason: "x".repeat(2000) });
  const resolved = events.filter((event) => event.type === "approval_resolved");
  assert.deepEqual(resolved.map((event) => event.type === "approval_resolved" && event.reason?.length), [
    undefined,
    2000,
  ]);
});
