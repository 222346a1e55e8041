import assert from "node:assert/strict";
import { join } from "node:path";
import { Approvals } from "../../src/control/approvals.ts";
import type { ApprovalChoice, ApprovalRequest, ReasonixEvent } from "../../src/control/events.ts";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { type Controller, type ControllerSession, withController } from "../support/controller_session.ts";
import { toolResults } from "../support/sim_messages.ts";

function withSession(
  script: ScriptedReply[],
  options: { mode?: string; extraToml?: string; headless?: boolean; attach?: boolean },
  body: (session: ControllerSession) => Promise<void>,
) {
  return withController({
    script,
    files: { "a.txt": "alpha\n" },
    headless: options.headless ?? false,
    flags: options.mode ? { permissionMode: options.mode } : {},
    listen: options.attach !== false,
    ...(options.extraToml ? { extraToml: options.extraToml } : {}),
  }, body);
}

/** Answers every approval card with the next choice, as a frontend would. */
function answerWith(controller: Controller, choices: ApprovalChoice[]): ApprovalRequest[] {
  const seen: ApprovalRequest[] = [];
  controller.subscribe((event) => {
    if (event.type !== "approval_requested") return;
    seen.push(event.request);
    const choice = choices.shift() ?? "deny";
    queueMicrotask(() => void controller.answerApproval(event.request.id, choice));
  });
  return seen;
}

const WRITE = { toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi\\n"}` }] };
const DONE = { content: "done" };

Deno.test("Controller emits approval_requested with a preview and runs the call on allow_once", async () => {
  await withSession([WRITE, DONE], {}, async ({ sim, controller, events, ws }) => {
    const seen = answerWith(controller, ["allow_once"]);
    const outcome = await controller.runTurn("write x.txt");
    assert.equal(outcome.subtype, "success");
    assert.equal(await Deno.readTextFile(join(ws, "x.txt")), "hi\n");
    assert.equal(seen.length, 1);
    const request = seen[0]!;
    assert.equal(request.tool, "write_file");
    assert.equal(request.subject, "x.txt");
    assert.equal(request.suggestedRule, "write_file(x.txt)");
    assert.equal(request.mode, "ask");
    assert.deepEqual(request.explanation, {
      decision: "ask",
      tier: "write",
      rule: null,
      reason: `"write_file" changes files or state`,
    });
    assert.equal(request.preview?.kind, "create");
    assert.equal(request.preview?.newText, "hi\n");
    assert.equal(request.arguments, `{"path":"x.txt","content":"hi\\n"}`);
    const resolved = events.find((event) => event.type === "approval_resolved");
    assert.deepEqual(resolved, { type: "approval_resolved", id: request.id, choice: "allow_once" });
    assert.match(toolResults(sim)[0]!, /x\.txt/);
  });
});

Deno.test("Controller tells the model the user declined when the answer is deny", async () => {
  await withSession([WRITE, DONE], {}, async ({ sim, controller, ws }) => {
    answerWith(controller, ["deny"]);
    await controller.runTurn("write x.txt");
    await assert.rejects(Deno.stat(join(ws, "x.txt")), Deno.errors.NotFound);
    assert.equal(toolResults(sim)[0], `Error [permission.denied]: The user declined this "write_file" call`);
  });
});

Deno.test("Controller remembers allow_session for the rest of the session only", async () => {
  await withSession([WRITE, WRITE, DONE], {}, async ({ controller, ws, home }) => {
    const seen = answerWith(controller, ["allow_session"]);
    await controller.runTurn("write x.txt twice");
    assert.equal(seen.length, 1, "the second identical call is covered by the session grant");
    assert.equal(await Deno.readTextFile(join(ws, "x.txt")), "hi\n");
    await assert.rejects(Deno.stat(join(home, "trust.json")), Deno.errors.NotFound);
  });
});

Deno.test("Controller persists allow_always per workspace, and a new session uses it", async () => {
  await withSession([WRITE, DONE, WRITE, DONE], {}, async ({ controller, ws, home, sim, boot }) => {
    answerWith(controller, ["allow_always"]);
    await controller.runTurn("write x.txt");
    const trust = JSON.parse(await Deno.readTextFile(join(home, "trust.json")));
    assert.deepEqual(trust.permissionGrants[ws].map((grant: { rule: string }) => grant.rule), [
      "write_file(x.txt)",
    ]);
    await Deno.remove(join(ws, "x.txt"));
    const next = await boot();
    try {
      const asked: ReasonixEvent[] = [];
      next.subscribe((event) => event.type === "approval_requested" && asked.push(event));
      await next.runTurn("write it again");
      assert.equal(asked.length, 0);
      assert.equal(await Deno.readTextFile(join(ws, "x.txt")), "hi\n");
      assert.equal(sim.requests.length, 4);
    } finally {
      await next.close();
    }
  });
});

Deno.test("Controller.interrupt() resolves a waiting approval as a cancelled deny", async () => {
  await withSession([WRITE, DONE], {}, async ({ controller, events, ws }) => {
    controller.subscribe((event) => {
      if (event.type === "approval_requested") queueMicrotask(() => controller.interrupt());
    });
    const outcome = await controller.runTurn("write x.txt");
    assert.equal(outcome.subtype, "error_during_execution");
    await assert.rejects(Deno.stat(join(ws, "x.txt")), Deno.errors.NotFound);
    const resolved = events.find((event) => event.type === "approval_resolved");
    assert.ok(resolved?.type === "approval_resolved");
    assert.equal(resolved.choice, "deny");
    assert.equal(resolved.cancelled, true);
    assert.deepEqual(controller.pendingApprovals(), []);
    const tool = controller.history().find((message) => message.role === "tool");
    assert.match(String(tool?.content), /cancelled|interrupted/);
  });
});

Deno.test("Controller fails closed when no frontend listens, naming what would allow the call", async () => {
  await withSession([WRITE, DONE], { attach: false }, async ({ sim, controller, ws }) => {
    await controller.runTurn("write x.txt");
    await assert.rejects(Deno.stat(join(ws, "x.txt")), Deno.errors.NotFound);
    const result = toolResults(sim)[0]!;
    assert.match(result, /^Error \[permission\.needs_approval\]/);
    assert.match(result, /--permission-mode auto/);
    assert.match(result, /--allowed-tools 'write_file\(x\.txt\)'/);
    assert.doesNotMatch(result, /declined|deny list/);
  });
});

Deno.test("Controller refuses a deny-rule match without asking, naming the rule", async () => {
  const rm = { toolCalls: [{ name: "bash", arguments: `{"command":"ls && rm -rf a.txt"}` }] };
  const extraToml = `[permissions]\ndeny = ["Bash(rm -rf:*)"]\n`;
  await withSession([rm, DONE], { mode: "yolo", extraToml }, async ({ sim, controller, events, ws }) => {
    await controller.runTurn("clean up");
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "alpha\n");
    assert.equal(events.filter((event) => event.type === "approval_requested").length, 0);
    assert.match(
      toolResults(sim)[0]!,
      /^Error \[permission\.denied\]: .*the deny rule "Bash\(rm -rf:\*\)" matches/,
    );
  });
});

Deno.test("Controller asks for tier-2 bash even in auto mode", async () => {
  const dynamic = { toolCalls: [{ name: "bash", arguments: `{"command":"echo $(cat a.txt)"}` }] };
  await withSession([dynamic, DONE], { mode: "auto" }, async ({ controller, sim }) => {
    const seen = answerWith(controller, ["deny"]);
    await controller.runTurn("echo it");
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.explanation.tier, "tier2");
    assert.equal(seen[0]!.suggestedRule, "Bash=echo $(cat a.txt)");
    assert.equal(seen[0]!.subject, "echo $(cat a.txt)");
    assert.match(toolResults(sim)[0]!, /declined/);
  });
});

Deno.test("Controller.setPermissionMode() applies to the next gated call", async () => {
  await withSession([WRITE, DONE], {}, async ({ controller, ws }) => {
    assert.equal(controller.permissionMode, "ask");
    controller.setPermissionMode("auto");
    const seen = answerWith(controller, []);
    await controller.runTurn("write x.txt");
    assert.equal(seen.length, 0);
    assert.equal(await Deno.readTextFile(join(ws, "x.txt")), "hi\n");
  });
});

const ASK = {
  callId: "c1",
  tool: "write_file",
  arguments: "{}",
  subject: "x.txt",
  preview: null,
  explanation: { decision: "ask" as const, tier: "write" as const, rule: null, reason: "r" },
  suggestedRule: "write_file(x.txt)",
};

Deno.test("Approvals.request() answers null when nobody listens and never emits", async () => {
  const events: ReasonixEvent[] = [];
  const desk = new Approvals({ mode: "ask" });
  desk.attach((event) => events.push(event), () => false);
  assert.equal(await desk.request(ASK), null);
  assert.deepEqual(events, []);
});

Deno.test("Approvals.answer() ignores unknown ids and reports a failed remember as a warning", async () => {
  const events: ReasonixEvent[] = [];
  const desk = new Approvals({ mode: "auto", persist: () => Promise.reject(new Error("disk full")) });
  desk.attach((event) => events.push(event), () => true);
  const pending = desk.request(ASK);
  const request = desk.pending()[0]!;
  assert.equal(request.mode, "auto");
  assert.equal(await desk.answer("approval-999", "allow_once"), false);
  assert.equal(await desk.answer(request.id, "allow_always"), true);
  assert.deepEqual(await pending, { choice: "allow_always" });
  assert.deepEqual(desk.grants().map((rule) => rule.source), ["write_file(x.txt)"]);
  assert.deepEqual(events.map((event) => event.type), ["approval_requested", "warning", "approval_resolved"]);
  assert.match(
    JSON.stringify(events[1]),
    /Cannot remember \\"write_file\(x\.txt\)\\" for later sessions: disk full/,
  );
});

Deno.test("Approvals.cancelAll() settles every waiting call as cancelled", async () => {
  const events: ReasonixEvent[] = [];
  const desk = new Approvals({ mode: "ask", alwaysRules: ["Bash(", "Edit(docs/**)"] });
  desk.attach((event) => events.push(event), () => true);
  assert.deepEqual(
    desk.grants().map((rule) => rule.source),
    ["Edit(docs/**)"],
    "an unreadable grant is dropped",
  );
  const both = [desk.request(ASK), desk.request({ ...ASK, callId: "c2" })];
  desk.cancelAll();
  assert.deepEqual(await Promise.all(both), ["cancelled", "cancelled"]);
  const resolved = events.filter((event) => event.type === "approval_resolved");
  assert.deepEqual(resolved.map((event) => event.type === "approval_resolved" && event.cancelled), [
    true,
    true,
  ]);
  assert.deepEqual(desk.pending(), []);
});
