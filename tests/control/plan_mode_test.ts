/**
 * Effect tests for plan mode through the real assembly (boot → Controller → loop → dispatch → gate →
 * request body) against the simulator: the host refuses every writer kind, readers run, a plan is
 * reviewed through the plan desk (approve, revise, reject, a stale revision), an approval seeds the
 * todo list and restores the earlier mode, and the provider-visible prefix never moves.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PLAN_ON_NOTE } from "../../src/control/plan_desk.ts";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { type BootingSession, type Controller, withBoots } from "../support/controller_session.ts";
import { assertPrependOnly, assertStablePrefix } from "../support/prefix_guard.ts";
import { toolResults } from "../support/sim_messages.ts";
import { toolsServerPlugin } from "../mcp/_servers.ts";

const DONE: ScriptedReply = { reasoning: "done", content: "done" };
const PLAN = {
  summary: "Add b.txt",
  steps: [{ content: "Write b.txt" }, { content: "Check it", detail: "cat" }],
};

function calls(...list: [string, Record<string, unknown>][]): ScriptedReply {
  return {
    reasoning: "call",
    toolCalls: list.map(([name, args]) => ({ name, arguments: JSON.stringify(args) })),
  };
}

function submit(plan: Record<string, unknown> = PLAN): [string, Record<string, unknown>] {
  return ["use_capability", { action: "call", capability_id: "tool:submit_plan", arguments: plan }];
}

function withSession(
  setup: { script: ScriptedReply[]; mode?: string; headless?: boolean; toml?: string; switchable?: boolean },
  body: (session: BootingSession) => Promise<void>,
) {
  return withBoots({
    script: setup.script,
    files: { "a.txt": "alpha\n" },
    ...(setup.toml ? { extraToml: setup.toml } : {}),
    boot: {
      headless: setup.headless ?? false,
      flags: { permissionMode: setup.mode ?? "auto" },
      ...(setup.switchable ? { switchable: true } : {}),
    },
  }, body);
}

/** Answers each plan card with the next decision in `answers`. */
function answering(controller: Controller, answers: [string, string?][]) {
  controller.subscribe((event) => {
    if (event.type !== "plan_proposed") return;
    const [decision, feedback] = answers.shift() ?? ["reject"];
    const answered = controller.plans!.answer(event.plan.revision, decision as "approve", feedback);
    assert.ok(answered, `answering revision ${event.plan.revision} with ${decision}`);
  });
}

Deno.test("plan mode: writers are refused by the host, readers run, an approved plan seeds todos and restores the mode; the prefix never moves", async () => {
  const script = [
    DONE,
    calls(
      ["write_file", { path: "b.txt", content: "b\n" }],
      ["edit_file", { path: "a.txt", old_string: "alpha", new_string: "beta" }],
      ["bash", { command: "touch c.txt" }],
      ["use_capability", {
        action: "call",
        capability_id: "tool:multi_edit",
        arguments: { path: "a.txt", edits: [{ old_string: "alpha", new_string: "x" }] },
      }],
    ),
    calls(["read_file", { path: "a.txt" }], ["bash", { command: "cat a.txt" }]),
    calls(submit()),
    calls(["write_file", { path: "b.txt", content: "b\n" }]),
    DONE,
  ];
  await withSession({ script }, async ({ sim, ws, events, boot }) => {
    const controller = await boot();
    await controller.runTurn("hello");
    controller.setPermissionMode("plan");
    assert.equal(controller.permissionMode, "plan");
    answering(controller, [["approve"]]);
    await controller.runTurn("add b.txt");
    const refused = toolResults(sim, 2);
    assert.equal(refused.length, 4);
    for (const result of refused) {
      assert.match(result, /^Error \[permission\.plan_mode\]: Not run \(\w+\): plan mode is on/);
    }
    assert.match(refused[2]!, /"bash" may change files or state/);
    assert.ok(!existsSync(join(ws, "c.txt")));
    assert.equal(Deno.readTextFileSync(join(ws, "a.txt")), "alpha\n");
    const read = toolResults(sim, 3).slice(4);
    assert.match(read[0]!, /alpha/);
    assert.match(read[1]!, /alpha/);
    const approved = toolResults(sim, 4).at(-1)!;
    assert.match(
      approved,
      /^The user approved plan revision 1\. Plan mode is off and the permission mode is "auto"/,
    );
    assert.match(approved, /\[ \] Write b\.txt\n\[ \] Check it/);
    assert.deepEqual(controller.todos(), [
      { content: "Write b.txt", status: "pending" },
      { content: "Check it", status: "pending" },
    ]);
    assert.equal(controller.permissionMode, "auto");
    assert.equal(Deno.readTextFileSync(join(ws, "b.txt")), "b\n", "after approval the earlier mode applies");
    // The switch reached the model on the tail of the next user message, never the system prompt.
    const user = (sim.requests[1]!.json.messages as { role: string; content: string }[]).at(-1)!;
    assert.equal(user.role, "user");
    assert.ok(user.content.includes(PLAN_ON_NOTE));
    const bodies = sim.requests.map((request) => request.body);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
    assert.ok(!bodies[0]!.includes("submit_plan"), "submit_plan is not in the first request at all");
    const kinds = events.filter((e) => e.type === "plan_proposed" || e.type === "plan_resolved");
    assert.deepEqual(kinds.map((e) => e.type), ["plan_proposed", "plan_resolved"]);
  });
});

Deno.test("plan mode: a revise answer carries the feedback, a stale revision is refused, a reject keeps plan mode", async () => {
  const script = [
    calls(submit()),
    calls(submit({ ...PLAN, summary: "Add b.txt and test it" })),
    DONE,
    calls(submit({ summary: "Again", steps: [{ content: "One" }] })),
    DONE,
  ];
  await withSession({ script, mode: "plan" }, async ({ sim, boot }) => {
    const controller = await boot();
    let stale: boolean | undefined;
    controller.subscribe((event) => {
      if (event.type !== "plan_proposed") return;
      if (event.plan.revision === 1) {
        assert.equal(controller.plans!.answer(1, "revise", "  "), false, "a revise needs feedback");
        assert.ok(controller.plans!.answer(1, "revise", "also add a test"));
      } else if (event.plan.revision === 2) {
        stale = controller.plans!.answer(1, "approve");
        assert.deepEqual(controller.plans!.pending()?.summary, "Add b.txt and test it");
        assert.ok(controller.plans!.answer(2, "reject", "not now"));
      } else {
        assert.ok(controller.plans!.answer(3, "reject"));
      }
    });
    await controller.runTurn("plan it");
    assert.equal(stale, false, "an approval of revision 1 cannot approve revision 2");
    const results = toolResults(sim);
    assert.match(
      results[0]!,
      /asked for changes to plan revision 1 and said: "also add a test"\. Plan mode stays on/,
    );
    assert.match(results[1]!, /^The user rejected plan revision 2 and said: "not now"\. Plan mode stays on/);
    assert.equal(controller.permissionMode, "plan");
    assert.deepEqual(controller.todos(), []);
    await controller.runTurn("again");
    assert.match(toolResults(sim).at(-1)!, /^The user rejected plan revision 3\. Plan mode stays on/);
  });
});

Deno.test("plan mode: a writer MCP tool is refused and a read-only one runs, even from yolo", async () => {
  const toml = toolsServerPlugin("fx");
  const script = [calls(["mcp__fx__wipe", { target: "db" }], ["mcp__fx__lookup", { key: "k" }]), DONE];
  await withSession({ script, mode: "yolo", toml }, async ({ sim, boot }) => {
    const controller = await boot();
    controller.setPermissionMode("plan");
    await controller.runTurn("wipe it");
    const [wipe, lookup] = toolResults(sim);
    assert.match(wipe!, /^Error \[permission\.plan_mode\]: Not run \(mcp__fx__wipe\): plan mode is on/);
    assert.equal(lookup, "value of k");
  });
});

Deno.test("plan mode: headless, the plan is recorded unanswered and nothing is written; a resume replays it", async () => {
  const script = [calls(["write_file", { path: "b.txt", content: "b" }], submit()), DONE, DONE];
  await withSession({ script, mode: "plan", headless: true }, async ({ sim, ws, boot }) => {
    const controller = await boot();
    await controller.runTurn("plan it");
    const [write, plan] = toolResults(sim);
    assert.match(write!, /^Error \[permission\.plan_mode\]/);
    assert.match(plan!, /^Plan revision 1: Nobody can review this plan/);
    assert.ok(!existsSync(join(ws, "b.txt")));
    await controller.close();
    const resumed = await boot({ kind: "latest" });
    const replayed = resumed.snapshot().filter((e) => e.type === "plan_resolved");
    assert.equal(replayed.length, 1);
    assert.equal(replayed[0]!.type === "plan_resolved" && replayed[0]!.outcome, "unanswered");
    assert.deepEqual(replayed[0]!.type === "plan_resolved" && replayed[0]!.plan.steps, PLAN.steps);
  });
});

Deno.test("plan mode: a new session keeps plan mode and the mode an approval returns to", async () => {
  await withSession({ script: [calls(submit()), DONE], switchable: true }, async ({ sim, boot }) => {
    const controller = await boot();
    controller.setPermissionMode("plan");
    await controller.sessions!.newSession();
    assert.equal(controller.permissionMode, "plan");
    answering(controller, [["approve"]]);
    await controller.runTurn("plan it");
    assert.equal(controller.permissionMode, "auto");
    const first = (sim.requests[0]!.json.messages as { role: string; content: string }[]).at(-1)!;
    assert.ok(first.content.includes(PLAN_ON_NOTE), "the new session's model is told too");
  });
});
