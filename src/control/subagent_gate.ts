/**
 * @module
 * A child's gate: the parent's permission policy first (plan mode, rules, approvals all apply), then
 * the child's own bound. A read-only child's writer calls are refused, including bash the classifier
 * cannot show only reads; a writer whose claim the OS sandbox cannot enforce on commands (the `none`
 * backend) may run only reading bash, so `write_paths` hold for commands too.
 */
import type { Gate, GateDecision } from "../agent/dispatch.ts";
import type { WorkspaceRoots } from "../permission/bash_classify.ts";
import { callFacts } from "../permission/facts.ts";
import type { ToolSpec } from "../tool/tool.ts";

export interface ChildBound {
  readOnly: boolean;
  /** The sandbox enforces the claim on commands. */
  enforced: boolean;
  roots: WorkspaceRoots;
  /** Names the child on the approval cards it raises. */
  label?: string;
}

export function childGate(parent: Gate, bound: ChildBound): Gate {
  const limit = async (spec: ToolSpec, args: unknown): Promise<GateDecision | null> => {
    if (bound.readOnly && !spec.readOnly && spec.name !== "bash") {
      return refuse(spec, "this subagent is read-only");
    }
    if (spec.name !== "bash" || (!bound.readOnly && bound.enforced)) return null;
    const facts = await callFacts(spec, args, bound.roots);
    if (facts.bash && facts.bash.judgement.tier === "read") return null;
    const why = bound.readOnly
      ? "this subagent is read-only and the command may change files"
      : "the OS sandbox is off, so a command that may write could leave this subagent's write_paths";
    return refuse(spec, why);
  };
  return {
    async check(spec, args, call) {
      const labelled = call && bound.label ? { ...call, agent: bound.label } : call;
      return await limit(spec, args) ?? await parent.check(spec, args, labelled);
    },
    async judge(spec, args) {
      const limited = await limit(spec, args);
      if (limited) return limited;
      return parent.judge ? await parent.judge(spec, args) : { allow: true };
    },
  };
}

function refuse(spec: ToolSpec, why: string): GateDecision {
  return { allow: false, code: "subagent.refused", message: `Not run (${spec.name}): ${why}` };
}
