/**
 * @module
 * One child's session: its own file in the workspace's sessions (linked to its parent by a
 * `subagent` event right after the header, so listings show it as a child, with the request it runs
 * with, so a restarted parent can continue it under the same rules), its own prefix (the
 * profile body, else CHILD_PROMPT, byte-stable), a context message with the workspace and its claim,
 * then the task as its one turn, run by the same agent loop as every turn.
 */
import { runTurnLoop, type TurnLoopOptions, type TurnLoopResult } from "../agent/loop.ts";
import type { ReasonixEvent } from "../agent/events.ts";
import type { ChatMessage, ChatResult } from "../provider/provider.ts";
import { priceFor, receiptFor } from "../provider/pricing.ts";
import { SessionLog } from "../session/log.ts";
import { SessionStore, type ToolOutcomeMeta } from "../session/store.ts";
import { SUBAGENT_EVENT } from "../session/details.ts";
import type { SubagentHost } from "./subagent_host.ts";
import type { StoredRequest } from "./subagent_recall.ts";

export const CHILD_PROMPT = [
  "You are a subagent of Reasonix, a coding agent: another agent gave you one task.",
  "Work on it with your tools, inside the workspace named in the first message. You cannot ask anyone",
  "anything: decide for yourself, and say what you assumed.",
  "Finish with one answer: what you found or changed, with file paths. That answer is all the other",
  "agent reads of your work, so make it complete and short.",
  'Some tools are reached through use_capability (action "list" shows them).',
].join("\n");

export interface ChildSpec {
  parentId: string;
  depth: number;
  description: string;
  prompt: string;
  system: string;
  /** The lines of the context message (workspace, what it may change). */
  context: string[];
  model: string;
  profile?: string;
  /** How it runs (read-only, write_paths, tools…), kept in its link. */
  request: StoredRequest;
}

export async function openChildLog(host: SubagentHost, spec: ChildSpec): Promise<SessionLog> {
  const now = host.now();
  const store = SessionStore.prepare(host.sessionsDir, {
    workspace: host.toolContext.workspace.root,
    model: spec.model,
    provider: host.providerConfig.name,
    now,
  });
  const log = new SessionLog(store, store.staged);
  const at = now.toISOString();
  const link = {
    parent: spec.parentId,
    depth: spec.depth,
    description: spec.description,
    ...(spec.profile ? { profile: spec.profile } : {}),
    request: spec.request,
  };
  await log.append(
    { type: "event", name: SUBAGENT_EVENT, data: link, at },
    { type: "message", message: { role: "system", content: spec.system } },
    {
      type: "message",
      message: { role: "user", content: `<session-context>\n${spec.context.join("\n")}\n</session-context>` },
    },
    { type: "entry", entry: { kind: "turn", turn: 1, text: spec.prompt }, at },
    { type: "message", message: { role: "user", content: spec.prompt } },
  );
  return log;
}

export type ChildLoop = Pick<TurnLoopOptions, "registry" | "toolContext" | "gate" | "effort" | "maxSteps"> & {
  signal: AbortSignal;
  model: string;
  onEvent: (event: ReasonixEvent) => void;
};

export async function runChild(
  host: SubagentHost,
  log: SessionLog,
  loop: ChildLoop,
): Promise<TurnLoopResult> {
  const append = async (message: ChatMessage, tool?: ToolOutcomeMeta) => {
    await log.append({ type: "message", message, ...(tool ? { tool } : {}) });
  };
  const onModelCall = async (result: ChatResult) => {
    const at = host.now();
    const receipt = receiptFor(result.usage, priceFor(loop.model, host.providerConfig.price), at);
    await log.append({
      type: "usage",
      usage: result.usage,
      model: loop.model,
      cost: receipt.cost,
      currency: receipt.currency,
      at: at.toISOString(),
    });
  };
  return await runTurnLoop({
    ...loop,
    provider: host.provider,
    ...(host.maxTokens ? { maxTokens: host.maxTokens } : {}),
    history: () => log.messages(),
    append,
    onModelCall,
    emit: loop.onEvent,
  });
}

export async function closeChildLog(
  log: SessionLog,
  end: { subtype: TurnLoopResult["subtype"]; result: string },
  at: Date,
): Promise<void> {
  try {
    await log.append({ type: "entry", entry: { kind: "turn_end", ...end }, at: at.toISOString() });
  } finally {
    log.store.close();
  }
}
