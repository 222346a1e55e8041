/**
 * Faces attach to the Controller's event log: a late face gets the session as it stands (across
 * processes), a face that reconnects with its last seq gets only what it missed.
 */
import assert from "node:assert/strict";
import { bootController } from "../../src/control/boot.ts";
import type { ReasonixEvent } from "../../src/control/events.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";

const TODOS = `{"todos":[{"content":"read","status":"in_progress"}]}`;
const SCRIPT: ScriptedReply[] = [
  { reasoning: "plan", toolCalls: [{ name: "todo_write", arguments: TODOS }] },
  { reasoning: "read", toolCalls: [{ name: "read_file", arguments: `{"path":"a.txt"}` }] },
  { reasoning: "done", content: "first answer" },
  { content: "second answer" },
  { content: "third answer" },
  { content: "fourth answer" },
];

async function withSessions(
  body: (boot: (resume: boolean) => ReturnType<typeof bootController>) => Promise<void>,
) {
  const sim = await DeepSeekSim.start({ script: SCRIPT });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  const paths = resolvePaths({ REASONIX_HOME: home });
  try {
    await body((resume) =>
      bootController({
        cwd: ws,
        headless: true,
        env: {},
        paths,
        ...(resume ? { resume: { kind: "latest" as const } } : {}),
      })
    );
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

const of = <T extends ReasonixEvent["type"]>(events: ReasonixEvent[], type: T) =>
  events.filter((event): event is Extract<ReasonixEvent, { type: T }> => event.type === type);

Deno.test("Controller.subscribe() gives a late face the whole session across processes", async () => {
  await withSessions(async (boot) => {
    const first = await boot(false);
    await first.runTurn("plan and read");
    await first.runTurn("second");
    const firstCost = first.totals().cost ?? 0;
    await first.close();
    const second = await boot(true);
    try {
      await second.runTurn("third");
      const events: ReasonixEvent[] = [];
      second.subscribe((event) => events.push(event), {});
      assert.equal(events[0]!.type, "session_started");
      assert.deepEqual(of(events, "turn_started").map((e) => [e.turn, e.text]), [
        [1, "plan and read"],
        [2, "second"],
        [3, "third"],
      ]);
      assert.deepEqual(of(events, "text").map((e) => e.text), [
        "first answer",
        "second answer",
        "third answer",
      ]);
      const todo = of(events, "tool_result").find((e) => e.name === "todo_write");
      assert.deepEqual(todo?.data, { kind: "todo", items: [{ content: "read", status: "in_progress" }] });
      const cost = of(events, "usage").reduce((sum, e) => sum + (e.cost ?? 0), 0);
      assert.ok(Math.abs(cost - (firstCost + (second.totals().cost ?? 0))) < 1e-12);
      assert.equal(of(events, "usage").length, 5);
      assert.match(of(events, "notice").at(-1)!.message, /^resumed plan and read · 3 turns · .* so far$/);
      const recorded = events.filter((e) => !["session_started", "notice", "warning"].includes(e.type));
      assert.ok(recorded.every((e) => typeof e.seq === "number"), "replayed events carry their record's seq");
    } finally {
      await second.close();
    }
  });
});

Deno.test("Controller.subscribe({fromSeq}) sends a reconnecting face what it missed, nothing twice", async () => {
  await withSessions(async (boot) => {
    const controller = await boot(false);
    try {
      const seen: ReasonixEvent[] = [];
      const detach = controller.subscribe((event) => seen.push(event), {});
      await controller.runTurn("plan and read");
      detach();
      const lastSeq = Math.max(...seen.flatMap((event) => event.seq === undefined ? [] : [event.seq]));
      assert.equal(lastSeq, controller.lastSeq, "the face saw the last record of its turn");
      await controller.runTurn("second");
      await controller.runTurn("third");
      const missed: ReasonixEvent[] = [];
      controller.subscribe((event) => missed.push(event), { fromSeq: lastSeq });
      assert.ok(missed.every((event) => event.seq! > lastSeq));
      assert.deepEqual(of(missed, "turn_started").map((e) => e.text), ["second", "third"]);
      assert.deepEqual(of(missed, "turn_done").length, 2);
      const full = controller.snapshot().filter((event) => event.seq !== undefined);
      const liveDurable = seen.filter((event) => event.type === "turn_started" || event.type === "usage");
      const replayed = full.filter((event) =>
        (event.type === "turn_started" || event.type === "usage") && event.seq! <= lastSeq
      );
      assert.deepEqual(liveDurable, replayed, "live and replayed events of the same records agree");
    } finally {
      await controller.close();
    }
  });
});
