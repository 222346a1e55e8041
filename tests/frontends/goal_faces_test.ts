/**
 * A `goal_updated` event in the faces that render events themselves: ACP (an agent message line), the
 * redacted event lines of `run --events-jsonl` (status and turns only, never the objective), and the line
 * every face shares, with the model's or user's terminal controls stripped.
 */
import assert from "node:assert/strict";
import { updatesOf } from "../../src/frontends/acp/updates.ts";
import { Redactor } from "../../src/frontends/run/event_lines.ts";
import { goalEventText, type GoalSnapshot } from "../../src/control/mod.ts";

const GOAL: GoalSnapshot = {
  id: "g1",
  objective: "Ship \x1b[31mit\x1b[0m",
  revision: 2,
  status: "blocked",
  category: "write",
  turns: 4,
  budget: 20,
  tokens: 9000,
  noProgress: 4,
  noProgressLimit: 4,
  extensions: 0,
  stopCause: "no_progress",
};

Deno.test("goal_updated: one line per face; ACP live only; redacted lines carry no objective", () => {
  const event = { type: "goal_updated" as const, goal: GOAL };
  const line = goalEventText(GOAL);
  assert.equal(
    line,
    "Goal blocked after 4 turns: no host-verifiable progress in a row; /goal resume tries again",
  );
  assert.equal(
    goalEventText({ ...GOAL, status: "active", turns: 0 }),
    "Goal started (write, 20 turns): Ship it",
  );
  assert.deepEqual(updatesOf(event, { root: "/ws", replay: false }), [
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n${line}\n` } },
  ]);
  assert.deepEqual(updatesOf(event, { root: "/ws", replay: true }), []);
  const redacted = new Redactor().line(event);
  assert.deepEqual(redacted, {
    schema_version: 1,
    sequence: 1,
    kind: "goal_updated",
    goal_status: "blocked",
    goal_turns: 4,
  });
});
