/**
 * @module
 * Connects a session's parts to the Controller that adopts them: the desks (approvals, questions,
 * plans) report through `desk`, the rest of what happens outside a turn through `emit`.
 */
import type { ControllerParts } from "./controller_parts.ts";
import type { ReasonixEvent } from "./events.ts";
import { planHooks } from "./plan_desk.ts";

export interface PartsWiring {
  /** Approvals, questions and plans: recorded in the log, then shown. */
  desk(event: ReasonixEvent): void;
  emit(event: ReasonixEvent): void;
  /** Whether a face is listening to these parts (a desk asks nobody otherwise). */
  attended(): boolean;
  runningJobs(): number;
  /** A subagent event, before it is shown (the Controller adds a finished child's spend to its totals). */
  subagent?(event: ReasonixEvent): void;
}

export function wireParts(parts: ControllerParts, wiring: PartsWiring): void {
  const { desk, emit, attended } = wiring;
  parts.approvals?.attach(desk, attended);
  parts.questions?.attach(desk, attended);
  parts.plans?.attach(planHooks(parts, desk, attended));
  parts.toolContext.jobs?.onChange(() => emit({ type: "jobs", running: wiring.runningJobs() }));
  parts.workspaceOps?.subagents?.attach((event) => {
    wiring.subagent?.(event);
    emit(event);
  });
  // A /remember or /forget reaches the model on the tail of the next turn, never its system prompt.
  const tell = (note: string) => parts.turnNotes = [...(parts.turnNotes ?? []), note];
  parts.workspaceOps?.memory.attach(tell);
  parts.workspaceOps?.attachNotes(tell); // `/reload`: a changed skill catalog
}
