/**
 * @module
 * Verified delivery's gate, wrapped around the permission gate: a call that would change anything is
 * refused while the session has no todo list (the acceptance list), before anyone is asked to approve
 * it; every call the gate lets through is noted, so the turn's watch knows what its result means.
 */
import type { Gate } from "../../agent/dispatch.ts";
import { parseBash } from "../../permission/bash_parse.ts";
import { classifyBash } from "../../permission/bash_classify.ts";
import type { ToolSpec, Workspace } from "../../tool/tool.ts";
import type { CallNote } from "./watch.ts";
import { NO_LIST_CODE, noListMessage } from "./notes.ts";
import { verifiesWork } from "./verifier.ts";

/** Tools that change only the session's own state, never the workspace. */
const SESSION_TOOLS: ReadonlySet<string> = new Set(["update_goal", "kill_shell"]);

export interface DeliveryGateHooks {
  /** Delivery is on right now (`/delivery off` mid-turn stops refusing). */
  active(): boolean;
  hasList(): boolean;
  workspace(): Workspace;
  /** `[agent] verify_commands`: prefixes the user counts as checks. */
  verifyCommands(): readonly string[];
  refused(tool: string): void;
  noted(callId: string, note: CallNote): void;
}

export function deliveryGate(inner: Gate, hooks: DeliveryGateHooks): Gate {
  return {
    async check(spec, args, call) {
      const { writer, ...note } = await judged(spec, args, hooks);
      if (writer && hooks.active() && !hooks.hasList() && !await deniedAnyway(inner, spec, args)) {
        hooks.refused(spec.name);
        return { allow: false, code: NO_LIST_CODE, message: noListMessage(spec.name) };
      }
      const decision = await inner.check(spec, args, call);
      if (decision.allow && call) hooks.noted(call.id, note);
      return decision;
    },
    ...(inner.judge ? { judge: inner.judge.bind(inner) } : {}),
  };
}

/** Plan mode or a deny rule refuses it anyway: their refusal says more (and asks nobody). */
async function deniedAnyway(inner: Gate, spec: ToolSpec, args: unknown): Promise<boolean> {
  const verdict = await inner.judge?.(spec, args);
  return verdict !== undefined && !verdict.allow && verdict.code === "permission.denied";
}

/** Writer: refused before the list exists (plan mode's test: bash that is not a plain read). */
async function judged(
  spec: ToolSpec,
  args: unknown,
  hooks: Pick<DeliveryGateHooks, "workspace" | "verifyCommands">,
): Promise<CallNote & { writer: boolean }> {
  const record = typeof args === "object" && args !== null ? args as Record<string, unknown> : {};
  if (spec.name === "bash" && typeof record.command === "string") {
    const { root, extraWritable } = hooks.workspace();
    const judgement = classifyBash(await parseBash(record.command), { root, extraWritable });
    const writer = judgement.tier !== "read";
    if (judgement.writePaths.length > 0) return { writer, change: true };
    if (record.run_in_background === true) return { writer, change: false };
    const checks = verifiesWork(judgement, { root, verifyCommands: hooks.verifyCommands() });
    return { writer, change: false, command: record.command, checks };
  }
  if (
    spec.name === "complete_step" && record.evidence === "verification" && typeof record.command === "string"
  ) {
    return { writer: false, change: false, cites: record.command };
  }
  const writer = !spec.readOnly && !SESSION_TOOLS.has(spec.name);
  return { writer, change: writer };
}
