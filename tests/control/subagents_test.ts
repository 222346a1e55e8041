/**
 * Effect tests for subagents through the real assembly (boot → Controller → loop → use_capability →
 * the subagent tools → child loops → their own sessions) against the simulator, with real files:
 * a fleet of disjoint writers running at once, an overlapping fleet refused before anything starts,
 * a write outside a claim refused, plan mode refusing `task`, and the parent's prefix unchanged.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { assertPrependOnly, assertStablePrefix, splitBody } from "../support/prefix_guard.ts";
import {
  answer,
  calls,
  capability,
  conversationOf,
  isChild,
  subagentEvents,
  toolResults,
  withSubagents,
} from "../support/subagent_session.ts";
import { listWorkspaceSessions } from "../../src/session/listing.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { builtinRegistry } from "../../src/tool/builtin/mod.ts";

const SLOW = { fault: { kind: "slow_first_byte" as const, delayMs: 300 } };

Deno.test("fleet: two writers with disjoint write_paths run at once, each writes only inside its claim", async () => {
  const scripts = {
    parent: [
      calls(capability("fleet", {
        tasks: [
          { prompt: "write in a", description: "A", write_paths: ["a"] },
          { prompt: "write in b", description: "B", write_paths: ["b/"] },
        ],
      })),
      answer("both done"),
    ],
    "write in a": [
      calls(["write_file", { path: "a/x.txt", content: "from a\n" }], ["write_file", {
        path: "b/stray.txt",
        content: "no\n",
      }]),
      answer("wrote a/x.txt", SLOW),
    ],
    "write in b": [
      { ...calls(["write_file", { path: "b/y.txt", content: "from b\n" }]), ...SLOW },
      answer("wrote b/y.txt"),
    ],
  };
  await withSubagents(
    { scripts, files: { "a/keep": "", "b/keep": "" } },
    async ({ sim, ws, events, controller }) => {
      const outcome = await controller.runTurn("split the work");
      assert.equal(outcome.subtype, "success", outcome.result);
      assert.equal(Deno.readTextFileSync(join(ws, "a/x.txt")), "from a\n");
      assert.equal(Deno.readTextFileSync(join(ws, "b/y.txt")), "from b\n");
      assert.ok(!existsSync(join(ws, "b/stray.txt")), "a write outside the claim never lands");
      const [, stray] = toolResults(sim, "write in a");
      assert.match(
        stray!,
        /^Error \[tool\.path_outside_claim\]: Cannot write "b\/stray\.txt": this subagent may only change its write_paths \("a"\)/,
      );
      const phases = subagentEvents(events).filter((e) => e.phase === "started" || e.phase === "done").map((
        e,
      ) => e.phase);
      assert.deepEqual(phases.slice(0, 2), ["started", "started"], "both started before either finished");
      const fleet = toolResults(sim, "parent")[0]!;
      assert.match(fleet, /## task 1: done \(ref "subagent:[\w-]+"\)\nwrote a\/x\.txt/);
      assert.match(fleet, /## task 2: done \(ref "subagent:[\w-]+"\)\nwrote b\/y\.txt/);
      const parentBodies = sim.requests.filter((r) => !isChild(r)).map((r) => r.body);
      assertStablePrefix(parentBodies);
      assertPrependOnly(parentBodies);
      // The pinned bodies (request_bytes_test) keep the system prompt; their tools are the registry's bytes.
      const golden: string[] = JSON.parse(
        Deno.readTextFileSync(join(import.meta.dirname!, "fixtures", "request_bytes.json")),
      );
      const opened = golden[0]!.slice(golden[0]!.indexOf(`"messages":[`) + `"messages":[`.length);
      const parentPrefix = splitBody(parentBodies[0]!);
      assert.equal(
        parentPrefix.system,
        opened.slice(0, opened.indexOf("},{") + 1),
        "the pinned system prompt",
      );
      assert.equal(parentPrefix.tools, `"tools":${builtinRegistry().toolsJson()}`, "the pinned tools array");
      assert.ok(
        !parentBodies[0]!.includes('"name":"fleet"'),
        "the subagent tools are not in the tools array",
      );
    },
  );
});

Deno.test("fleet: overlapping claims, or two whole-workspace writers, are refused before anything starts", async () => {
  const scripts = {
    parent: [
      calls(
        capability("fleet", {
          tasks: [{ prompt: "one", write_paths: ["src"] }, { prompt: "two", write_paths: ["src/x.ts"] }],
        }),
        capability("fleet", { tasks: [{ prompt: "three" }, { prompt: "four" }] }),
      ),
      answer("refused"),
    ],
  };
  await withSubagents(
    { scripts, files: { "src/x.ts": "x\n" } },
    async ({ sim, home, ws, events, controller }) => {
      await controller.runTurn("go");
      const [overlap, whole] = toolResults(sim, "parent");
      assert.match(
        overlap!,
        /^Error \[subagent\.claims_overlap\]: Nothing started: task 1 \("src"\) and task 2 \("src\/x\.ts"\)/,
      );
      assert.match(
        whole!,
        /^Error \[subagent\.claims_overlap\]: Nothing started: task 1 \(the whole workspace\)/,
      );
      assert.equal(sim.requests.filter(isChild).length, 0, "no child ever asked the model");
      assert.equal(subagentEvents(events).length, 0);
      const sessions = await listWorkspaceSessions(resolvePaths({ REASONIX_HOME: home }).sessionsDir, ws);
      assert.equal(sessions.length, 1, "no child session was created");
    },
  );
});

Deno.test("task: plan mode refuses task and fleet by the host; read_only_task still runs", async () => {
  const scripts = {
    parent: [
      calls(
        capability("task", { prompt: "change it", write_paths: ["a.txt"] }),
        capability("fleet", {
          tasks: [{ prompt: "f1", write_paths: ["x"] }, { prompt: "f2", write_paths: ["y"] }],
        }),
        capability("read_only_task", { prompt: "look at a.txt" }),
      ),
      answer("planned"),
    ],
    "look at a.txt": [
      calls(["read_file", { path: "a.txt" }], ["bash", { command: "touch z.txt" }]),
      answer("a.txt holds alpha"),
    ],
  };
  await withSubagents({ scripts, mode: "plan" }, async ({ sim, ws, controller }) => {
    await controller.runTurn("plan it");
    const [task, fleet, reader] = toolResults(sim, "parent");
    assert.match(task!, /^Error \[permission\.plan_mode\]: Not run \(task\): plan mode is on/);
    assert.match(fleet!, /^Error \[permission\.plan_mode\]: Not run \(fleet\): plan mode is on/);
    assert.match(reader!, /^a\.txt holds alpha/);
    const [read, touch] = toolResults(sim, "look at a.txt");
    assert.match(read!, /alpha/);
    assert.match(touch!, /^Error \[(permission\.plan_mode|subagent\.refused)\]/);
    assert.ok(!existsSync(join(ws, "z.txt")));
    const started = sim.requests.map(conversationOf).filter((c) => ["change it", "f1", "f2"].includes(c));
    assert.deepEqual(started, [], "no writer ever started");
  });
});

Deno.test("task: a writer's bash cannot write outside its claim either (OS sandbox, or refused without one)", async () => {
  const command = "echo no > b.txt; mkdir -p a && echo yes > a/in.txt";
  const scripts = {
    parent: [calls(capability("task", { prompt: "shell", write_paths: ["a"] })), answer("ok")],
    shell: [calls(["bash", { command }]), answer("tried")],
  };
  await withSubagents({ scripts, files: { "a/keep": "" } }, async ({ sim, ws, controller }) => {
    await controller.runTurn("go");
    assert.ok(!existsSync(join(ws, "b.txt")), "nothing lands outside the claim");
    const [result] = toolResults(sim, "shell");
    if (result!.startsWith("Error [subagent.refused]")) {
      assert.match(result!, /the OS sandbox is off/);
    } else {
      assert.match(result!, /Read-only file system|Permission denied/);
      assert.equal(Deno.readTextFileSync(join(ws, "a/in.txt")), "yes\n", "inside the claim it writes");
    }
  });
});

Deno.test("task: a child's writes join the parent turn's checkpoint, so rewinding the turn's code undoes them", async () => {
  const scripts = {
    parent: [calls(capability("task", { prompt: "edit", write_paths: ["a.txt", "new.txt"] })), answer("ok")],
    edit: [
      calls(
        ["edit_file", { path: "a.txt", old_string: "alpha", new_string: "beta" }],
        ["write_file", { path: "new.txt", content: "new\n" }],
      ),
      answer("edited"),
    ],
  };
  await withSubagents({ scripts }, async ({ ws, controller }) => {
    await controller.runTurn("go");
    assert.equal(Deno.readTextFileSync(join(ws, "a.txt")), "beta\n");
    const outcome = await controller.rewind({ turn: 1, scope: "code" });
    assert.equal(outcome.status, "done");
    assert.equal(Deno.readTextFileSync(join(ws, "a.txt")), "alpha\n");
    assert.ok(!existsSync(join(ws, "new.txt")));
  });
});
