/**
 * Goal mode end to end through the real assembly (boot → Controller → loop → tools → request bytes)
 * against the simulator: a goal that completes, one stopped by four turns without host-verifiable
 * progress, a budget stop that `/goal resume` extends, a restart loading the sidecar, and the guard
 * that starting a goal mid-session leaves the provider-visible prefix as it was.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import type { GoalSnapshot, ReasonixEvent } from "../../../src/control/events.ts";
import { goalFileFor } from "../../../src/session/goal_file.ts";
import type { Responder } from "../../support/deepseek_sim.ts";
import { type BootingSession, type Controller, withBoots } from "../../support/controller_session.ts";
import { assertPrependOnly, assertStablePrefix, splitBody } from "../../support/prefix_guard.ts";
import { goalModel, type GoalMove, goalNamed } from "../../support/goal_model.ts";

function withSession(script: Responder, body: (session: BootingSession) => Promise<void>) {
  return withBoots(
    { script, files: { "a.txt": "alpha\n" }, boot: { flags: { permissionMode: "yolo" } } },
    body,
  );
}

function goals(events: ReasonixEvent[]): GoalSnapshot[] {
  return events.flatMap((event) => event.type === "goal_updated" ? [event.goal] : []);
}

async function submitted(controller: Controller, input: string): Promise<string> {
  const result = await controller.submit(input);
  assert.equal(result.kind, "command", `${input} ran as a command`);
  return result.kind === "command" ? result.output.join("\n") : "";
}

Deno.test("goal mode: a goal works turn after turn until the model reports it complete", async () => {
  const moves: GoalMove[] = ["write", "write", "complete"];
  await withSession(goalModel((turn) => moves[turn - 1] ?? "idle"), async ({ sim, ws, events, boot }) => {
    const controller = await boot();
    const output = await submitted(controller, "/goal Add three output files to the workspace");
    assert.match(output, /^goal: Add three output files to the workspace$/m);
    assert.match(output, /^status: complete$/m);
    assert.match(output, /^runtime: turns 3\/20, tokens \d+, no-progress 1\/4, extensions 0$/m);
    assert.equal(await Deno.readTextFile(`${ws}/out1.txt`), "turn 1\n");
    assert.equal(await Deno.readTextFile(`${ws}/out2.txt`), "turn 2\n");
    const final = (await controller.goal.current())!;
    assert.equal(final.status, "complete");
    assert.equal(final.category, "write");
    assert.ok(final.tokens > 0, "tokens are observed");
    // The model's report moved the revision; the sidecar holds the same state.
    assert.equal(final.revision, 2);
    const stored = JSON.parse(await Deno.readTextFile(goalFileFor(controller.sessionFile)));
    assert.deepEqual(stored, final);
    const seen = goals(events).map((goal) => `${goal.status}:${goal.turns}`);
    assert.deepEqual(seen, ["active:0", "active:1", "active:2", "complete:3"]);
    // Turn 1 carries the objective; later turns a host note, all as user messages on the tail.
    const users = (sim.requests.at(-1)!.json.messages as { role: string; content: string }[])
      .filter((m) => m.role === "user").map((m) => m.content).slice(1);
    assert.match(users[0]!, /^Add three output files to the workspace\n\n\[goal mode\]/);
    assert.match(users[1]!, /\[goal mode\] Continue goal "g[0-9a-f]+" \(revision 1\), turn 2 of 20\./);
    assertStablePrefix(sim.requests.map((r) => r.body));
    assertPrependOnly(sim.requests.map((r) => r.body));
  });
});

Deno.test("goal mode: four turns without host-verifiable progress stop the goal as blocked", async () => {
  // The model keeps talking (and claims progress in words) but nothing the host can check changes.
  await withSession(goalModel(() => "idle"), async ({ sim, boot }) => {
    const controller = await boot();
    const end = await controller.goal.start("Investigate why the build is slow and report the causes");
    assert.equal(end.status, "blocked");
    assert.equal(end.stopCause, "no_progress");
    assert.equal(end.category, "research");
    assert.equal(end.turns, 4);
    assert.equal(end.noProgress, 4);
    assert.equal(sim.requests.length, 4);
    const status = await submitted(controller, "/goal status");
    assert.match(status, /^status: blocked \(no host-verifiable progress/m);
    assert.match(status, /^runtime: turns 4\/40, tokens \d+, no-progress 4\/4, extensions 0$/m);
  });
});

Deno.test("goal mode: a budget stop loads as blocked after a restart; /goal resume adds one more budget", async () => {
  // A simple goal (10 turns): a file each turn, so only the budget stops it; after the resume it completes.
  const moves = (turn: number): GoalMove => turn <= 10 ? "write" : "complete";
  await withSession(goalModel(moves), async ({ events, boot }) => {
    const first = await boot();
    const end = await first.goal.start("Bump the version");
    assert.equal(end.category, "simple");
    assert.equal(end.status, "paused");
    assert.equal(end.stopCause, "budget");
    assert.equal(end.turns, 10);
    await first.close();

    const second = await boot({ kind: "latest" });
    const announced = events.length;
    second.start();
    const loaded = (await second.goal.current())!;
    const shown = goals(events.slice(announced));
    assert.deepEqual(
      shown.map((goal) => goal.status),
      ["blocked"],
      "the continued session announces its goal",
    );
    assert.equal(loaded.status, "blocked", "a goal paused by its budget loads as blocked");
    assert.equal(loaded.stopCause, "budget");
    const status = await submitted(second, "/goal status");
    assert.match(status, /^status: blocked \(turn budget used; \/goal resume adds one more budget\)$/m);
    assert.match(
      status,
      new RegExp(`^runtime: turns 10/10, tokens ${loaded.tokens}, no-progress 0/4, extensions 0$`, "m"),
    );

    const resumed = await submitted(second, "/goal resume");
    assert.match(resumed, /^status: complete$/m);
    assert.match(resumed, /^runtime: turns 11\/20, tokens \d+, no-progress 1\/4, extensions 1$/m);
  });
});

Deno.test("goal mode: an explicit blocked, an unanswered question and /goal stop end the run", async () => {
  await withSession(goalModel((turn) => turn === 1 ? "blocked" : "ask"), async ({ boot }) => {
    const controller = await boot();
    const blocked = await controller.goal.start("Deploy the service to staging");
    assert.equal(blocked.status, "blocked");
    assert.equal(blocked.stopCause, "blocked");
    assert.equal(blocked.detail, "needs the staging password");
    const asked = await controller.goal.resume();
    assert.equal(asked.status, "paused");
    assert.equal(asked.stopCause, "needs_user");
    assert.equal(await submitted(controller, "/goal clear"), "Goal stopped.");
    assert.equal(await controller.goal.current(), null);
    await assert.rejects(Deno.stat(goalFileFor(controller.sessionFile)), Deno.errors.NotFound);
    assert.equal(await submitted(controller, "/goal status"), "No goal. Start one with /goal <objective>.");
  });
});

Deno.test("goal mode guard: starting a goal mid-session leaves the system prompt and tools bytes as they were", async () => {
  const script: Responder = (request, index) =>
    index === 0 ? { reasoning: "hi", content: "Hello." } : goalModel(() => "complete")(request, index);
  await withSession(script, async ({ sim, boot }) => {
    const controller = await boot();
    await controller.runTurn("hello");
    const before = splitBody(sim.requests[0]!.body);
    const end = await controller.goal.start("Write the release notes");
    assert.equal(end.status, "complete");
    assert.ok(sim.requests.length >= 3);
    for (const request of sim.requests) {
      const parts = splitBody(request.body);
      assert.equal(parts.system, before.system, "the system prompt moved when the goal started");
      assert.equal(parts.tools, before.tools, "the tools array moved when the goal started");
      assert.doesNotMatch(parts.tools, /update_goal/, "update_goal is reached through use_capability");
      assert.doesNotMatch(parts.system, /update_goal/, "the system prompt does not name update_goal");
    }
    assertPrependOnly(sim.requests.map((r) => r.body));
  });
});

Deno.test("goal mode: /goal pause waits for the running turn; /goal stop interrupts it and removes the sidecar", async () => {
  await withSession(goalModel(() => "write"), async ({ boot }) => {
    const controller = await boot();
    let pausing: Promise<unknown> | undefined;
    const unsubscribe = controller.subscribe((event) => {
      if (event.type === "goal_updated" && event.goal.turns === 1) {
        pausing ??= controller.submit("/goal pause");
      }
    });
    const paused = await controller.goal.start("Write the changelog");
    unsubscribe();
    assert.match(
      ((await pausing) as { output: string[] }).output[0]!,
      /^The goal pauses after the running turn\.$/,
    );
    assert.equal(paused.status, "paused");
    assert.equal(paused.stopCause, "paused");
    assert.equal(paused.turns, 2, "the turn running when pause came finished");
    assert.equal(controller.busy, false);

    let stopping: Promise<unknown> | undefined;
    controller.subscribe((event) => {
      if (event.type === "turn_started") stopping ??= controller.submit("/goal stop");
    });
    const resumed = controller.goal.resume();
    const stopped = await resumed;
    await stopping;
    assert.equal(stopped.status, "stopped");
    assert.equal(stopped.turns, 3);
    assert.equal(await controller.goal.current(), null);
    await assert.rejects(Deno.stat(goalFileFor(controller.sessionFile)), Deno.errors.NotFound);
  });
});

Deno.test("goal mode: while a goal runs the session is busy; a second goal is refused", async () => {
  await withSession(goalModel(() => "write"), async ({ boot }) => {
    const controller = await boot();
    let second: Promise<unknown> | undefined;
    controller.subscribe((event) => {
      if (event.type !== "goal_updated" || event.goal.turns !== 1) return;
      assert.equal(controller.busy, true, "busy between two goal turns");
      second ??= controller.goal.start("Another goal").catch((error) => error);
      void controller.goal.pause();
    });
    await controller.goal.start("Write the changelog");
    const refused = (await second) as Error & { code?: string };
    assert.equal(refused.code, "session.busy");
  });
});

Deno.test("goal mode: an exhausted account balance blocks the goal; a provider failure pauses it", async () => {
  const script: Responder = (request, index) =>
    index === 0
      ? goalModel(() => "write")(request, index)
      : { fault: { kind: "status", status: index === 1 ? 402 : 400 } };
  await withSession(script, async ({ boot }) => {
    const controller = await boot();
    const blocked = await controller.goal.start("Write the changelog");
    assert.equal(blocked.status, "blocked");
    assert.equal(blocked.stopCause, "balance");
    assert.equal(blocked.turns, 1);
    const failed = await controller.goal.resume();
    assert.equal(failed.status, "paused");
    assert.equal(failed.stopCause, "error");
    assert.ok(failed.detail);
  });
});

Deno.test("goal mode: an unreadable sidecar is reported as a warning and a new goal replaces it", async () => {
  await withSession(goalModel(() => "complete"), async ({ events, boot }) => {
    const controller = await boot();
    const file = goalFileFor(controller.sessionFile);
    await Deno.mkdir(dirname(file), { recursive: true });
    await Deno.writeTextFile(file, "{not json");
    assert.equal(await submitted(controller, "/goal status"), "No goal. Start one with /goal <objective>.");
    const warning = events.find((event) => event.type === "warning");
    assert.match(warning?.type === "warning" ? warning.message : "", /it is not a goal-mode state file/);
    assert.equal((await controller.goal.start("Write the notes")).status, "complete");
    assert.equal(JSON.parse(await Deno.readTextFile(file)).status, "complete");
  });
});

Deno.test("goal mode runs under verified delivery: a change before the acceptance list is refused; the mode comes back", async () => {
  // A model that writes straight away, without an acceptance list, then reports the goal complete.
  const script: Responder = (request) => {
    const messages = request.json.messages as { role: string }[];
    const step = messages.length - 1 - messages.findLastIndex((m) => m.role === "user");
    const goal = goalNamed(request)!;
    const report = { goal_id: goal.id, revision: goal.revision, action: "complete" };
    if (step === 0) {
      return { toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"x"}` }] };
    }
    if (step === 2) {
      const args = { action: "call", capability_id: "tool:update_goal", arguments: report };
      return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(args) }] };
    }
    return { content: "Reported." };
  };
  await withSession(script, async ({ sim, ws, boot }) => {
    const controller = await boot();
    assert.equal(controller.delivery.mode, "off");
    const modes: string[] = [];
    controller.subscribe((event) => {
      if (event.type === "turn_started") modes.push(controller.delivery.mode);
    });
    const end = await controller.goal.start("Create x.txt");
    assert.equal(end.status, "complete");
    assert.deepEqual(modes, ["verify"]);
    assert.equal(controller.delivery.mode, "off", "the mode from before the goal is back");
    const tools = (sim.requests.at(-1)!.json.messages as { role: string; content: string }[])
      .filter((m) => m.role === "tool");
    assert.match(tools[0]!.content, /delivery\.no_acceptance_list/);
    await assert.rejects(Deno.stat(`${ws}/x.txt`), Deno.errors.NotFound);
  });
});

Deno.test("goal mode: the model may lower its round limit with update_goal edit, never raise it", async () => {
  const limit = (rounds: number): Responder => (request) => {
    const messages = request.json.messages as { role: string }[];
    if (messages.at(-1)!.role !== "user") return { content: "Turn over." };
    const goal = goalNamed(request)!;
    const args = { goal_id: goal.id, revision: goal.revision, action: "edit", max_goal_rounds: rounds };
    const call = { action: "call", capability_id: "tool:update_goal", arguments: args };
    return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
  };
  await withSession(limit(1), async ({ boot }) => {
    const end = await (await boot()).goal.start("Write the notes");
    assert.equal(end.budget, 1);
    assert.equal(end.stopCause, "budget");
    assert.equal(end.revision, 2);
  });
  await withSession(limit(100), async ({ boot }) => {
    const end = await (await boot()).goal.start("Write the notes");
    assert.equal(end.budget, 20, "a raise is ignored");
    assert.equal(end.stopCause, "no_progress");
  });
});
