/**
 * Effect tests for subagent limits, results and visibility through the real assembly against the
 * simulator: the depth limit, the shared concurrency limit, paging an answer by byte offset (and
 * refusing a forged ref), a child's session listed as a child, and cancelling one child or the turn.
 */
import assert from "node:assert/strict";
import { resolvePaths } from "../../src/config/paths.ts";
import { latestWithTurns, listWorkspaceSessions } from "../../src/session/listing.ts";
import {
  answer,
  calls,
  capability,
  eventually,
  isChild,
  lastToolResult,
  subagentEvents,
  toolResults,
  withSubagents,
} from "../support/subagent_session.ts";

Deno.test("subagents: max_subagent_depth = 1 gives a child no subagent tools; no grandchild starts", async () => {
  const scripts = {
    parent: [calls(capability("read_only_task", { prompt: "child" })), answer("ok")],
    child: [calls(capability("read_only_task", { prompt: "grandchild" })), answer("could not delegate")],
  };
  const toml = "[agent]\nmax_subagent_depth = 1\n";
  await withSubagents({ scripts, toml }, async ({ sim, controller }) => {
    await controller.runTurn("go");
    const [nested] = toolResults(sim, "child");
    assert.match(nested!, /^Error \[[\w.]+\]: .*read_only_task/);
    assert.equal(sim.requests.filter((r) => isChild(r)).length, 2, "only the child's own two requests");
    assert.match(toolResults(sim, "parent")[0]!, /^could not delegate/);
  });
});

Deno.test("subagents: max_subagent_concurrency = 1 runs parallel_tasks one after another", async () => {
  const scripts = {
    parent: [
      calls(capability("parallel_tasks", { tasks: [{ prompt: "one" }, { prompt: "two" }] })),
      answer("ok"),
    ],
    one: [answer("first", { fault: { kind: "slow_first_byte", delayMs: 200 } })],
    two: [answer("second")],
  };
  const toml = "[agent]\nmax_subagent_concurrency = 1\nmax_parallel_writers = 1\n";
  await withSubagents({ scripts, toml }, async ({ sim, events, controller }) => {
    await controller.runTurn("go");
    const phases = subagentEvents(events).filter((e) => e.phase === "started" || e.phase === "done").map((
      e,
    ) => e.phase);
    assert.deepEqual(phases, ["started", "done", "started", "done"]);
    const result = toolResults(sim, "parent")[0]!;
    assert.match(result, /## task 1: done[^\n]*\nfirst/);
    assert.match(result, /## task 2: done[^\n]*\nsecond/);
  });
});

Deno.test("read_subagent_result: pages a long answer by byte offset; forged and foreign refs read nothing", async () => {
  const long = "é".repeat(10000) + "END";
  const ref = (text: string) => /ref "(subagent:[\w-]+)"/.exec(text)![1]!;
  const scripts = {
    parent: [
      calls(capability("read_only_task", { prompt: "long" })),
      (request: Parameters<typeof lastToolResult>[0]) =>
        calls(
          capability("read_subagent_result", {
            ref: ref(lastToolResult(request)),
            offset_bytes: 9999,
            limit_bytes: 4,
          }),
          capability("read_subagent_result", { ref: "../../x" }),
          capability("read_subagent_result", { ref: "subagent:20260101-000000-abcd" }),
        ),
      answer("read"),
    ],
    long: [answer(long)],
  };
  const toml = "[tools]\noutput_budget_bytes = 1000000\n";
  await withSubagents({ scripts, toml }, async ({ sim, controller }) => {
    await controller.runTurn("go");
    const [first, page, forged, foreign] = toolResults(sim, "parent");
    assert.ok(Buffer.byteLength(first!.split("\n[answer continues")[0]!) <= 16_384);
    assert.match(
      first!,
      /\[answer continues: read_subagent_result ref "subagent:[\w-]+" offset_bytes 16384\]/,
    );
    assert.equal(page, "éé\n[more: offset_bytes 10002 of 20003]", "a page never splits a character");
    assert.match(forged!, /^Error \[subagent\.bad_ref\]/);
    assert.match(foreign!, /^Error \[subagent\.unknown_ref\]/);
  });
});

Deno.test("subagents: a child's session is listed as the parent's child and -c still picks the parent", async () => {
  const scripts = {
    parent: [calls(capability("read_only_task", { prompt: "child", description: "look" })), answer("ok")],
  };
  await withSubagents({ scripts }, async ({ home, ws, controller }) => {
    await controller.runTurn("go");
    const dir = resolvePaths({ REASONIX_HOME: home }).sessionsDir;
    const sessions = await listWorkspaceSessions(dir, ws);
    const child = sessions.find((s) => s.parent === controller.sessionId);
    assert.ok(child, "the child session is listed with its parent");
    assert.equal(child.firstMessage, "child");
    assert.equal(await latestWithTurns(dir, ws), controller.sessionFile);
    const tree = await controller.submit("/tree");
    assert.match(JSON.stringify(tree), new RegExp(`subagents:.*${child.id} · done · reader · look`));
  });
});

Deno.test("subagents: /agents lists a running child and /agents cancel stops it; the turn goes on", async () => {
  const scripts = {
    parent: [calls(capability("read_only_task", { prompt: "slow" })), answer("after cancel")],
    slow: [{ reasoning: "x", fault: { kind: "hang" as const } }],
  };
  await withSubagents({ scripts }, async ({ sim, events, controller }) => {
    const turn = controller.runTurn("go");
    const started = await eventually(events, (e) => e.type === "subagent" && e.phase === "started");
    const id = started.type === "subagent" ? started.sessionId : "";
    await eventually(events, () => sim.requests.some(isChild));
    const listed = await controller.submit("/agents");
    assert.match(JSON.stringify(listed), new RegExp(id));
    await controller.submit(`/agents cancel ${id}`);
    const outcome = await turn;
    assert.equal(outcome.subtype, "success", outcome.result);
    assert.equal(outcome.result, "after cancel");
    assert.match(toolResults(sim, "parent")[0]!, /^\[the subagent failed\] The subagent was cancelled/);
    assert.equal(controller.workspaceOps!.subagents!.children().length, 0);
  });
});

Deno.test("subagents: interrupting the parent turn cancels its children", async () => {
  const scripts = {
    parent: [calls(capability("parallel_tasks", { tasks: [{ prompt: "h1" }, { prompt: "h2" }] }))],
    h1: [{ reasoning: "x", fault: { kind: "hang" as const } }],
    h2: [{ reasoning: "x", fault: { kind: "hang" as const } }],
  };
  await withSubagents({ scripts }, async ({ events, controller }) => {
    const turn = controller.runTurn("go");
    await eventually(events, () => subagentEvents(events).filter((e) => e.phase === "started").length === 2);
    controller.interrupt();
    const outcome = await turn;
    assert.notEqual(outcome.subtype, "success");
    await eventually(events, () => subagentEvents(events).filter((e) => e.phase === "done").length === 2);
    assert.ok(subagentEvents(events).filter((e) => e.phase === "done").every((e) => e.ok === false));
  });
});

Deno.test("task: run_in_background returns a ref at once; the answer is read from it once the child is done", async () => {
  const ref = (text: string) => /ref "(subagent:bg-[0-9a-f]{6}-\d+)"/.exec(text)![1]!;
  const scripts = {
    parent: [
      calls(capability("task", { prompt: "later", write_paths: ["a.txt"], run_in_background: true })),
      answer("started"),
      (request: Parameters<typeof lastToolResult>[0]) => {
        const messages = request.json.messages as { role: string; content: string }[];
        const started = messages.find((m) =>
          m.role === "tool" && m.content.startsWith("Started in the background")
        );
        return calls(capability("read_subagent_result", { ref: ref(started!.content) }));
      },
      answer("read"),
    ],
    later: [answer("the late answer", { fault: { kind: "slow_first_byte", delayMs: 300 } })],
  };
  await withSubagents({ scripts }, async ({ sim, events, controller }) => {
    const first = await controller.runTurn("start it");
    assert.equal(first.result, "started");
    assert.match(
      toolResults(sim, "parent")[0]!,
      /^Started in the background; read its answer with read_subagent_result ref "subagent:bg-[0-9a-f]{6}-1"/,
    );
    await eventually(events, (e) => e.type === "subagent" && e.phase === "done");
    await controller.runTurn("read it");
    assert.match(
      toolResults(sim, "parent").at(-1)!,
      /^the late answer\n\[subagent session [\w-]+, ref "subagent:[\w-]+"\]\n\[end\]$/,
    );
  });
});

Deno.test("fleet: fail_fast cancels the other writers once one fails", async () => {
  const scripts = {
    parent: [
      calls(capability("fleet", {
        fail_fast: true,
        tasks: [{ prompt: "breaks", write_paths: ["x"] }, { prompt: "hangs", write_paths: ["y"] }],
      })),
      answer("ok"),
    ],
    breaks: [{ fault: { kind: "status" as const, status: 400, message: "bad request" } }],
    hangs: [{ reasoning: "x", fault: { kind: "hang" as const } }],
  };
  await withSubagents({ scripts }, async ({ sim, controller }) => {
    const outcome = await controller.runTurn("go");
    assert.equal(outcome.subtype, "success", outcome.result);
    const result = toolResults(sim, "parent")[0]!;
    assert.match(result, /## task 1: failed/);
    assert.match(result, /## task 2: failed[^\n]*\nThe subagent was cancelled/);
  });
});

Deno.test("subagents: /agents show prints an ended child's transcript; an id outside this conversation is refused", async () => {
  const scripts = {
    parent: [calls(capability("read_only_task", { prompt: "look around" })), answer("parent done")],
    "look around": [answer("The repository holds a.txt only.")],
  };
  await withSubagents({ scripts }, async ({ events, controller }) => {
    await controller.runTurn("go");
    const started = await eventually(events, (e) => e.type === "subagent" && e.phase === "started");
    const id = started.type === "subagent" ? started.sessionId : "";
    const shown = JSON.stringify(await controller.submit(`/agents show ${id}`));
    assert.match(shown, /look around/);
    assert.match(shown, /The repository holds a\.txt only\./);
    const other = JSON.stringify(await controller.submit(`/agents show ${controller.sessionId}`));
    assert.match(other, /No subagent/);
    assert.doesNotMatch(other, /parent done/);
  });
});
