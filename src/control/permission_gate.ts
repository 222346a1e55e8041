/**
 * @module
 * The Gate the agent loop consults: judge the call with the permission policy, run it, refuse it, or
 * put it on the approval desk. A refusal tells the model exactly what happened: a deny rule, a person
 * declining, an interrupted wait, or nobody being there to ask (with what would allow it).
 */
import type { Gate, GateCall, GateDecision } from "../agent/dispatch.ts";
import { callFacts } from "../permission/facts.ts";
import { type CallFacts, decide, type Decision, type PolicyRules } from "../permission/evaluate.ts";
import type { WorkspaceRoots } from "../permission/bash_classify.ts";
import { escapeInvisible } from "../permission/characters.ts";
import type { FileChange, ToolSpec } from "../tool/tool.ts";
import type { Approvals } from "./approvals.ts";

export interface PolicyGateOptions {
  approvals: Approvals;
  rules: PolicyRules;
  allowDynamicBash: boolean;
  privateHosts?: readonly string[];
  roots: WorkspaceRoots;
  /** No approval UI at all (`reasonix run`): asks fail closed without trying the desk. */
  headless: boolean;
}

const ALLOW: GateDecision = { allow: true };
const PLAN_HINT = `Keep exploring with reading tools, then propose the change with use_capability ` +
  `(action "call", capability_id "tool:submit_plan"); the user approves the plan before anything changes`;

export function createPolicyGate(options: PolicyGateOptions): Gate {
  return {
    async check(spec, args, call) {
      const facts = await callFacts(spec, args, options.roots);
      const decision = decide(facts, policyOf(options, options.headless));
      if (decision.decision === "allow") return ALLOW;
      if (decision.decision === "deny") return refuse(spec, decision);
      return await askPerson(spec, { args, call, decision, options, facts });
    },
    async judge(spec, args) {
      const decision = decide(await callFacts(spec, args, options.roots), policyOf(options, false));
      if (decision.decision === "allow") return ALLOW;
      const code = decision.decision === "deny" ? "permission.denied" : "permission.needs_approval";
      return { allow: false, code, message: decision.reason };
    },
  };
}

function policyOf(options: PolicyGateOptions, headless: boolean) {
  const { rules, approvals } = options;
  return {
    mode: approvals.mode,
    headless,
    rules: { allow: [...rules.allow, ...approvals.grants()], ask: rules.ask, deny: rules.deny },
    allowDynamicBash: options.allowDynamicBash,
    privateHosts: options.privateHosts ?? [],
  };
}

async function askPerson(
  spec: ToolSpec,
  pending: {
    args: unknown;
    call: GateCall | undefined;
    decision: Decision;
    options: PolicyGateOptions;
    facts: CallFacts;
  },
): Promise<GateDecision> {
  const { decision, call, options } = pending;
  const preview = await previewOf(spec, pending.args, call);
  const asked = performance.now();
  const answer = await options.approvals.request({
    callId: call?.id ?? "",
    tool: spec.name,
    arguments: call?.arguments ?? JSON.stringify(pending.args),
    subject: shown(pending.facts.subjects[0]),
    preview,
    explanation: {
      decision: "ask",
      tier: decision.tier,
      rule: decision.rule,
      reason: escapeInvisible(decision.reason),
    },
    suggestedRule: decision.suggestedRule,
    ...(spec.destructive ? { destructive: true } : {}),
    ...(call?.agent ? { agent: call.agent } : {}),
  }, call?.ctx.signal);
  const waitedMs = Math.round(performance.now() - asked);
  if (answer === null) return refuse(spec, decide(pending.facts, policyOf(options, true)));
  if (answer === "cancelled") {
    return {
      allow: false,
      code: "tool.aborted",
      message: `Not run: the turn was cancelled while this "${spec.name}" call waited for approval`,
      waitedMs,
    };
  }
  if (answer.choice === "deny") {
    return { allow: false, code: "permission.denied", message: declined(spec.name, answer.reason), waitedMs };
  }
  return { allow: true, waitedMs };
}

/** The person's own words are quoted as a JSON string, so the model cannot mistake where they end. */
function declined(tool: string, reason: string | undefined): string {
  const refusal = `The user declined this "${tool}" call`;
  return reason === undefined ? refusal : `${refusal} and said: ${JSON.stringify(reason)}`;
}

/** What the card shows: invisible and bidi characters escaped, so the person sees what would run. */
function shown(subject: string | undefined): string | null {
  return subject === undefined ? null : escapeInvisible(subject);
}

async function previewOf(
  spec: ToolSpec,
  args: unknown,
  call: GateCall | undefined,
): Promise<FileChange | null> {
  if (!call || !(call.plan || spec.preview)) return null;
  try {
    if (call.plan) return (await call.plan()).change;
    return await spec.preview!(args, call.ctx);
  } catch {
    // The call itself reports why it cannot run; the card just shows no diff.
    return null;
  }
}

function refuse(spec: ToolSpec, decision: Decision): GateDecision {
  if (decision.class === "plan-mode") {
    return {
      allow: false,
      code: "permission.plan_mode",
      message: `Not run (${spec.name}): ${decision.reason}. ${PLAN_HINT}`,
    };
  }
  if (decision.unanswerable) {
    return {
      allow: false,
      code: "permission.needs_approval",
      message: `Not run (${spec.name}): ${decision.reason}`,
    };
  }
  return {
    allow: false,
    code: "permission.denied",
    message: `Not run (${spec.name}): ${decision.reason}, so the call is blocked`,
  };
}
