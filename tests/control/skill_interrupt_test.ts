/**
 * A subagent skill run by `/name` outside a turn is cancellable: `Controller.interrupt()` (what Ctrl+C
 * calls) aborts the child's hanging request, the command reports the failure, the Controller is busy only
 * while the child runs, and the session takes the next turn normally.
 */
import assert from "node:assert/strict";
import { withController } from "../support/controller_session.ts";

const SLOW =
  "---\nname: slow\ndescription: Takes forever\nrunAs: subagent\nread-only: true\n---\nYou are slow.\n";

Deno.test("skills: interrupt() cancels a /name subagent skill whose child request hangs", async () => {
  const script = [{ content: "never", fault: { kind: "hang" as const } }, { content: "Back to work." }];
  const files = { ".reasonix/skills/slow/SKILL.md": SLOW };
  const options = { script, files, flags: { permissionMode: "yolo" }, listen: false };
  await withController(options, async ({ sim, controller }) => {
    const running = controller.submit("/slow think hard");
    while (sim.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(controller.busy, true, "busy while the child runs");
    const started = performance.now();
    controller.interrupt();
    const result = await running;
    assert.ok(performance.now() - started < 5000, "cancelled promptly");
    assert.equal(result.kind, "command");
    assert.match(
      result.kind === "command" ? result.output.join("\n") : "",
      /slow[^]*(interrupt|cancel|abort)/i,
    );
    assert.equal(controller.busy, false);
    const next = await controller.submit("carry on");
    assert.equal(next.kind, "turn");
    assert.equal(next.kind === "turn" ? next.outcome.result : "", "Back to work.");
    assert.equal(sim.requests.length, 2);
  });
});
