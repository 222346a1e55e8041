import assert from "node:assert/strict";
import { resolvePaths } from "../../src/config/paths.ts";
import type { ReasonixEvent } from "../../src/control/events.ts";
import type { Controller } from "../../src/control/controller.ts";
import { loadSession } from "../../src/session/store.ts";
import { sessionDetails } from "../../src/session/details.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { sessionFiles } from "../support/cli.ts";
import { splitBody } from "../support/prefix_guard.ts";
import { tempRoot } from "../../src/sandbox/temp_dir.ts";
import { secondProvider } from "./_second_provider.ts";
import { withController } from "../support/controller_session.ts";

interface Hosted {
  sim: DeepSeekSim;
  host: Controller;
  home: string;
  events: ReasonixEvent[];
}

function withHost(script: ScriptedReply[], body: (ctx: Hosted) => Promise<void>) {
  return withController(
    { script, extraToml: secondProvider, files: { "a.txt": "alpha\n" }, switchable: true },
    async ({ sim, controller: host, home, events }) => {
      host.start();
      await body({ sim, host, home, events });
    },
  );
}

function messagesOpen(sim: DeepSeekSim, index: number): string {
  return splitBody(sim.requests[index]!.body).messagesOpen;
}

Deno.test("Controller.sessions.newSession() starts a fresh session file with a fresh prefix and keeps listeners", async () => {
  await withHost([{ content: "one" }, { content: "two" }], async ({ sim, host, home, events }) => {
    await host.runTurn("first task");
    const first = host.sessionId;
    const oldFile = host.sessionFile;
    await host.sessions!.newSession();
    assert.notEqual(host.sessionId, first);
    const started = events.filter((e) => e.type === "session_started");
    assert.equal(started.length, 2, "the listener attached before the switch hears the new session");
    assert.deepEqual(started[1], {
      type: "session_started",
      sessionId: host.sessionId,
      resumed: false,
      model: "deepseek-flash",
      provider: "deepseek-flash",
      figures: { turns: 0, promptTokens: 0, hitTokens: 0, cost: null, currency: null },
    });
    await host.runTurn("second task");
    const roles = sim.requests[1]!.json.messages.map((m: { role: string }) => m.role);
    assert.deepEqual(roles, ["system", "user", "user"], "no message of the old session reaches the new one");
    assert.equal(splitBody(sim.requests[1]!.body).system, splitBody(sim.requests[0]!.body).system);
    assert.equal((await sessionFiles(home)).length, 2);
    const old = await loadSession(oldFile);
    assert.equal(sessionDetails(old.records).turns, 1, "the old session keeps only its own turn");
  });
});

Deno.test("Controller.sessions.resume() switches back and the next request starts with the old session's exact bytes", async () => {
  await withHost(
    [{ content: "one" }, { content: "two" }, { content: "three" }],
    async ({ sim, host, events }) => {
      await host.runTurn("remember 31");
      const oldFile = host.sessionFile;
      const oldId = host.sessionId;
      await host.sessions!.newSession();
      await host.runTurn("unrelated");
      await host.sessions!.resume(oldFile);
      assert.equal(host.sessionId, oldId);
      const started = events.findLast((e) => e.type === "session_started");
      assert.equal(started?.type === "session_started" && started.resumed, true);
      await host.runTurn("what did I say");
      assert.ok(
        messagesOpen(sim, 2).startsWith(messagesOpen(sim, 0)),
        "the resumed request replays the first session's messages byte for byte",
      );
      assert.ok(!sim.requests[2]!.body.includes("unrelated"));
    },
  );
});

async function tempDirs(home: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(tempRoot(resolvePaths({ REASONIX_HOME: home }).stateHome))) {
    names.push(entry.name);
  }
  return names;
}

Deno.test("Controller.sessions closes the session it replaces: its temp dir is removed, its file gets no more records", async () => {
  await withHost([{ content: "one" }, { content: "two" }], async ({ host, home }) => {
    await host.runTurn("first");
    const [before] = await tempDirs(home);
    const oldFile = host.sessionFile;
    const size = (await Deno.stat(oldFile)).size;
    await host.sessions!.newSession();
    await host.runTurn("second");
    const after = await tempDirs(home);
    assert.equal(after.length, 1, "one live session, one temp dir");
    assert.notEqual(after[0], before);
    assert.equal((await Deno.stat(oldFile)).size, size);
  });
});

Deno.test("Controller.sessions refuses to switch sessions while a turn is running", async () => {
  await withHost([{ content: "never", fault: { kind: "hang" }, keepAlive: 1 }], async ({ host, events }) => {
    const turn = host.runTurn("slow");
    while (!events.some((e) => e.type === "turn_started")) await new Promise((r) => setTimeout(r, 10));
    await assert.rejects(host.sessions!.newSession(), { code: "session.busy" });
    await assert.rejects(host.sessions!.switchModel("sim-pro"), { code: "session.busy" });
    host.interrupt();
    await turn;
    await host.sessions!.newSession();
  });
});

Deno.test("Controller.sessions.switchModel() re-boots the same session with the new model, prefix unchanged", async () => {
  await withHost([{ content: "one" }, { content: "two" }], async ({ sim, host, events }) => {
    await host.runTurn("hello");
    const id = host.sessionId;
    await host.sessions!.switchModel("sim-pro");
    assert.equal(host.sessionId, id);
    assert.equal(host.model, "sim-pro-model");
    const warning = events.findLast((e) => e.type === "warning");
    assert.match(warning?.type === "warning" ? warning.message : "", /cold cache/);
    await host.runTurn("again");
    assert.equal(sim.requests[1]!.json.model, "sim-pro-model");
    assert.ok(messagesOpen(sim, 1).startsWith(messagesOpen(sim, 0)));
    assert.deepEqual((await host.sessions!.models()).filter((m) => m.current).map((m) => m.ref), [
      "sim-pro/sim-pro-model",
    ]);
  });
});

Deno.test("Controller.setEffort() changes the next request's effort, not its messages prefix, and survives /new", async () => {
  await withHost([{ content: "one" }, { content: "two" }, { content: "three" }], async ({ sim, host }) => {
    await host.runTurn("hello");
    assert.equal(sim.requests[0]!.json.reasoning_effort, "high");
    host.setEffort("max");
    assert.equal(host.effort, "max");
    await host.runTurn("again");
    assert.equal(sim.requests[1]!.json.reasoning_effort, "max");
    assert.ok(messagesOpen(sim, 1).startsWith(messagesOpen(sim, 0)));
    assert.equal(splitBody(sim.requests[1]!.body).tools, splitBody(sim.requests[0]!.body).tools);
    await host.sessions!.newSession();
    await host.runTurn("fresh");
    assert.equal(sim.requests[2]!.json.reasoning_effort, "max");
  });
});

Deno.test("Controller.rename() records a title that recentSessions() lists", async () => {
  await withHost([{ content: "one" }], async ({ host }) => {
    await host.runTurn("fix the parser");
    await host.rename("Parser work");
    await host.sessions!.newSession();
    // The new session has no turn yet, so it is not on disk and not listed.
    const [older, ...rest] = await host.sessions!.recentSessions();
    assert.deepEqual(rest, []);
    assert.notEqual(older?.id, host.sessionId);
    assert.equal(older?.title, "Parser work");
    assert.equal(older?.firstMessage, "fix the parser");
    assert.equal(older?.turns, 1);
  });
});
