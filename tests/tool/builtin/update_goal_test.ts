import assert from "node:assert/strict";
import { updateGoalTool } from "../../../src/tool/builtin/update_goal.ts";
import { type Goal, newSessionToolState } from "../../../src/tool/session_state.ts";
import { rejectsWithCode } from "../_tool_context.ts";
import { stateContext } from "./_state_context.ts";

function withGoal(goal: Partial<Goal> = {}) {
  const state = newSessionToolState();
  state.goal = { id: "g1", objective: "ship it", revision: 1, status: "active", ...goal };
  return stateContext(state);
}

Deno.test("updateGoalTool edits the objective and round limit and bumps the revision", async () => {
  const ctx = withGoal();
  const result = await updateGoalTool.execute(
    { goal_id: "g1", revision: 1, action: "edit", objective: "ship it well", max_goal_rounds: 5 },
    ctx,
  );
  assert.deepEqual(result, {
    output: 'Goal "g1" is active (revision 2)\nObjective: ship it well\nRound limit: 5',
    data: { kind: "goal", id: "g1", objective: "ship it well", status: "active" },
  });
  assert.deepEqual(ctx.state?.goal, {
    id: "g1",
    objective: "ship it well",
    revision: 2,
    status: "active",
    maxGoalRounds: 5,
  });
  await updateGoalTool.execute({ goal_id: "g1", revision: 2, action: "edit", max_goal_rounds: null }, ctx);
  assert.equal(ctx.state?.goal?.maxGoalRounds, null);
  assert.equal(ctx.state?.goal?.revision, 3);
});

Deno.test("updateGoalTool pauses, blocks, resumes and completes", async () => {
  const ctx = withGoal();
  await updateGoalTool.execute({ goal_id: "g1", revision: 1, action: "pause" }, ctx);
  assert.equal(ctx.state?.goal?.status, "paused");
  const blocked = await updateGoalTool.execute(
    { goal_id: "g1", revision: 2, action: "blocked", blocked_reason: "needs an API key" },
    ctx,
  );
  assert.equal(
    blocked.output,
    'Goal "g1" is blocked (revision 3)\nObjective: ship it\nBlocked: needs an API key',
  );
  await updateGoalTool.execute({ goal_id: "g1", revision: 3, action: "resume" }, ctx);
  assert.deepEqual(ctx.state?.goal, { id: "g1", objective: "ship it", revision: 4, status: "active" });
  await updateGoalTool.execute({ goal_id: "g1", revision: 4, action: "complete" }, ctx);
  assert.equal(ctx.state?.goal?.status, "complete");
  assert.equal(ctx.state?.goal?.revision, 5);
});

Deno.test("updateGoalTool explains that there is no goal yet", async () => {
  const error = await rejectsWithCode(
    updateGoalTool.execute({ goal_id: "g1", revision: 1, action: "complete" }, stateContext()),
    "tool.no_goal",
  );
  assert.match(
    error.message,
    /^Cannot update goal "g1": this session has no running goal; goals are started with \/goal/,
  );
  await rejectsWithCode(
    updateGoalTool.execute({ goal_id: "g1", revision: 1, action: "complete" }, stateContext(null)),
    "tool.no_session_state",
  );
});

Deno.test("updateGoalTool refuses another goal's id or a stale revision, naming the current ones", async () => {
  const ctx = withGoal({ revision: 3 });
  const other = await rejectsWithCode(
    updateGoalTool.execute({ goal_id: "g2", revision: 3, action: "pause" }, ctx),
    "tool.goal_mismatch",
  );
  assert.equal(other.message, 'Cannot update goal "g2": the current goal is "g1" at revision 3');
  const stale = await rejectsWithCode(
    updateGoalTool.execute({ goal_id: "g1", revision: 2, action: "pause" }, ctx),
    "tool.stale_goal_revision",
  );
  assert.equal(
    stale.message,
    'Cannot update goal "g1" at revision 2: it is at revision 3; retry with revision 3 if the change still applies',
  );
  assert.deepEqual(ctx.state?.goal, { id: "g1", objective: "ship it", revision: 3, status: "active" });
});

Deno.test("updateGoalTool refuses actions the goal's status does not allow", async () => {
  const paused = await rejectsWithCode(
    updateGoalTool.execute({ goal_id: "g1", revision: 1, action: "pause" }, withGoal({ status: "paused" })),
    "tool.invalid_goal_action",
  );
  assert.equal(paused.message, 'Cannot pause goal "g1": it is paused');
  await rejectsWithCode(
    updateGoalTool.execute({ goal_id: "g1", revision: 1, action: "resume" }, withGoal()),
    "tool.invalid_goal_action",
  );
  const done = await rejectsWithCode(
    updateGoalTool.execute(
      { goal_id: "g1", revision: 1, action: "edit", objective: "x" },
      withGoal({ status: "complete" }),
    ),
    "tool.invalid_goal_action",
  );
  assert.equal(done.message, 'Cannot edit goal "g1": it is complete');
});

Deno.test("updateGoalTool checks which arguments each action takes", async () => {
  const ctx = withGoal();
  const cases: [Record<string, unknown>, string][] = [
    [{ action: "blocked" }, 'Cannot block goal "g1": blocked_reason is required'],
    [{ action: "edit" }, 'Cannot edit goal "g1": give objective, max_goal_rounds or both'],
    [
      { action: "pause", objective: "x" },
      'Cannot pause goal "g1": objective and max_goal_rounds are only for action "edit"',
    ],
    [
      { action: "complete", blocked_reason: "x" },
      'Cannot complete goal "g1": blocked_reason is only for action "blocked"',
    ],
  ];
  for (const [extra, message] of cases) {
    const args = updateGoalTool.parameters.parse({ goal_id: "g1", revision: 1, ...extra });
    const error = await rejectsWithCode(updateGoalTool.execute(args, ctx), "tool.invalid_args");
    assert.equal(error.message, message);
  }
  assert.equal(ctx.state?.goal?.revision, 1);
  assert.equal(
    updateGoalTool.parameters.safeParse({ goal_id: "g1", revision: 0, action: "pause" }).success,
    false,
  );
  assert.equal(updateGoalTool.readOnly, false);
});
