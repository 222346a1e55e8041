/**
 * Effect tests for what subagents spend, through the real assembly against the simulator: a child's
 * requests count in its parent's totals, session figures (what a resume reads back) and `session list`
 * COST, recursively for a grandchild, and for a cancelled child's completed requests; the child's own
 * session keeps its own figures. Every figure is checked against the usage records the sessions wrote.
 */
import assert from "node:assert/strict";
import {
  answer,
  calls,
  capability,
  eventually,
  isChild,
  subagentEvents,
  withSubagents,
} from "../support/subagent_session.ts";
import { listWorkspaceSessions } from "../../src/session/listing.ts";
import { loadSession } from "../../src/session/store.ts";
import type { LoggedRecord } from "../../src/session/log.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { sessionFigures } from "../../src/control/session_figures.ts";
import { SUBAGENT_USAGE_EVENT } from "../../src/session/child_spend.ts";
import { initialState, reduce } from "../../src/frontends/tui/state.ts";
import { bootController } from "../../src/control/boot.ts";

interface Own {
  requests: number;
  prompt: number;
  hit: number;
  cost: number;
}

/** What one session file's own `usage` records add up to. */
async function ownUsage(file: string): Promise<Own> {
  const own: Own = { requests: 0, prompt: 0, hit: 0, cost: 0 };
  for (const record of (await loadSession(file)).records) {
    if (record.type !== "usage") continue;
    own.requests++;
    own.prompt += record.usage.promptTokens;
    own.hit += record.usage.cacheHitTokens;
    own.cost += record.cost ?? 0;
  }
  return own;
}

function near(actual: number | null, expected: number, what: string) {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);
}

Deno.test("subagent cost: a child's two requests count in the parent's totals, figures and listing", async () => {
  const scripts = {
    parent: [calls(capability("read_only_task", { prompt: "child", description: "look" })), answer("ok")],
    child: [calls(["read_file", { path: "a.txt" }]), answer("read it")],
  };
  await withSubagents({ scripts }, async ({ home, ws, events, controller }) => {
    assert.equal((await controller.runTurn("go")).subtype, "success");
    const dir = resolvePaths({ REASONIX_HOME: home }).sessionsDir;
    const sessions = await listWorkspaceSessions(dir, ws);
    const child = sessions.find((s) => s.parent === controller.sessionId)!;
    const parentOwn = await ownUsage(controller.sessionFile);
    const childOwn = await ownUsage(child.file);
    assert.equal(parentOwn.requests, 2);
    assert.equal(childOwn.requests, 2);
    assert.ok(childOwn.cost > 0, "the simulator's model is priced");

    const totals = controller.totals();
    assert.equal(totals.modelCalls, 2, "the parent's own requests");
    assert.equal(totals.subagentCalls, 2, "the child's two requests");
    assert.equal(totals.usage.promptTokens, parentOwn.prompt + childOwn.prompt);
    assert.equal(totals.usage.cacheHitTokens, parentOwn.hit + childOwn.hit);
    near(totals.cost, parentOwn.cost + childOwn.cost, "turn totals cost");
    const shown = JSON.stringify(await controller.submit("/cost"));
    assert.match(shown, /Model calls:\s+2/);
    assert.match(shown, /Subagent calls:\s+2/);

    const phases = subagentEvents(events).filter((e) => e.phase !== "tool").map((e) => e.phase);
    assert.deepEqual(phases, ["started", "spent", "done"]);
    const spent = subagentEvents(events).find((e) => e.phase === "spent")!;
    assert.equal(spent.spent?.requests, 2);
    near(spent.spent?.cost ?? null, childOwn.cost, "the spent event");

    // A face attaching (or a resumed session's face) adds the replayed spend as it did live.
    const status = controller.snapshot().reduce(reduce, initialState()).status;
    near(status.costSession, parentOwn.cost + childOwn.cost, "the TUI's session cost from a snapshot");
    assert.equal(status.sessionPromptTokens, parentOwn.prompt + childOwn.prompt);

    // What a resume reads back: the figures of the parent's file.
    const records = (await loadSession(controller.sessionFile)).records as LoggedRecord[];
    assert.equal(records.filter((r) => r.type === "event" && r.name === SUBAGENT_USAGE_EVENT).length, 1);
    const figures = sessionFigures(records);
    near(figures.cost, parentOwn.cost + childOwn.cost, "session figures cost");
    assert.equal(figures.promptTokens, parentOwn.prompt + childOwn.prompt);
    assert.equal(figures.hitTokens, parentOwn.hit + childOwn.hit);

    const parentListed = sessions.find((s) => s.id === controller.sessionId)!;
    near(parentListed.cost, parentOwn.cost + childOwn.cost, "session list COST of the parent");
    near(child.cost, childOwn.cost, "the child's own session keeps its own figure");

    // Resumed in a new process's Controller: the face's figures still hold the child's spend.
    await controller.close();
    const resumed = await bootController({
      cwd: ws,
      headless: true,
      env: { PATH: Deno.env.get("PATH") ?? "" },
      paths: resolvePaths({ REASONIX_HOME: home }),
      flags: { permissionMode: "auto" },
      resume: { kind: "query", query: controller.sessionId },
    });
    try {
      assert.equal(resumed.sessionId, controller.sessionId);
      const again = resumed.snapshot().reduce(reduce, initialState()).status;
      near(again.costSession, parentOwn.cost + childOwn.cost, "the resumed session's cost");
    } finally {
      await resumed.close();
    }
  });
});

Deno.test("subagent cost: a grandchild counts in the child, which counts in the parent, once", async () => {
  const scripts = {
    parent: [calls(capability("read_only_task", { prompt: "child" })), answer("ok")],
    child: [calls(capability("read_only_task", { prompt: "grandchild" })), answer("delegated")],
    grandchild: [answer("leaf")],
  };
  await withSubagents({ scripts }, async ({ home, ws, sim, controller }) => {
    assert.equal((await controller.runTurn("go")).subtype, "success");
    assert.equal(sim.requests.filter(isChild).length, 3, "two child requests and one grandchild request");
    const dir = resolvePaths({ REASONIX_HOME: home }).sessionsDir;
    const sessions = await listWorkspaceSessions(dir, ws);
    const child = sessions.find((s) => s.parent === controller.sessionId)!;
    const grandchild = sessions.find((s) => s.parent === child.id)!;
    const [parentOwn, childOwn, leafOwn] = await Promise.all(
      [controller.sessionFile, child.file, grandchild.file].map(ownUsage),
    );
    const totals = controller.totals();
    assert.equal(totals.subagentCalls, 3);
    near(totals.cost, parentOwn!.cost + childOwn!.cost + leafOwn!.cost, "parent totals");
    near(child.cost, childOwn!.cost + leafOwn!.cost, "the child's COST holds its grandchild");
    near(grandchild.cost, leafOwn!.cost, "the grandchild's own");
    const parentListed = sessions.find((s) => s.id === controller.sessionId)!;
    near(parentListed.cost, totals.cost!, "session list COST of the parent");
  });
});

Deno.test("subagent cost: a cancelled child's completed requests still count", async () => {
  const scripts = {
    parent: [calls(capability("read_only_task", { prompt: "slow" })), answer("after cancel")],
    slow: [calls(["read_file", { path: "a.txt" }]), { reasoning: "x", fault: { kind: "hang" as const } }],
  };
  await withSubagents({ scripts }, async ({ sim, events, controller }) => {
    const turn = controller.runTurn("go");
    const started = await eventually(events, (e) => e.type === "subagent" && e.phase === "started");
    const id = started.type === "subagent" ? started.sessionId : "";
    await eventually(events, () => sim.requests.filter(isChild).length === 2);
    await controller.submit(`/agents cancel ${id}`);
    assert.equal((await turn).result, "after cancel");
    const done = subagentEvents(events).find((e) => e.phase === "done")!;
    assert.equal(done.ok, false);
    const spent = subagentEvents(events).find((e) => e.phase === "spent")!;
    assert.equal(spent.spent?.requests, 1, "the answered request, not the hung one");
    assert.equal(controller.totals().subagentCalls, 1);
  });
});
