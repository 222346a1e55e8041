/**
 * @module
 * `task(continue_from=ref)`: a finished child's session takes one more turn. The conversation's pool keeps,
 * for each child that ended, its session file and the request it ran with; a ref continues only when the
 * caller's own session started that child (its lineage), and the child keeps its profile, read-only state,
 * tools and write claim. Its prefix is its own stored one; the new prompt is its next user turn. A ref the pool
 * does not hold (the process restarted, or it was forgotten) is looked up in the children's session files.
 */
import { SessionLog } from "../session/log.ts";
import { SessionStore } from "../session/store.ts";
import { errorMessage } from "../lib/errors.ts";
import { ToolError } from "../tool/tool.ts";
import type { SubagentRequest } from "../tool/subagent_port.ts";
import type { ChildRecall } from "./subagent_recall.ts";

export interface FinishedChild {
  file: string;
  /** The session that started it. */
  parentId: string;
  request: SubagentRequest;
}

const FINISHED_LIMIT = 256;

export class FinishedChildren {
  readonly #byRef = new Map<string, FinishedChild>();
  readonly #recall: ChildRecall | undefined;

  constructor(recall?: ChildRecall) {
    this.#recall = recall;
  }

  remember(ref: string, child: FinishedChild): void {
    this.#byRef.delete(ref);
    this.#byRef.set(ref, child);
    if (this.#byRef.size > FINISHED_LIMIT) this.#byRef.delete(this.#byRef.keys().next().value!);
  }

  /** The request to run: the child's own, with the new prompt; refused outside the caller's lineage. */
  async continued(
    request: SubagentRequest,
    parentId: string,
  ): Promise<{ request: SubagentRequest; file: string }> {
    const ref = request.continueFrom!;
    const child = this.#byRef.get(ref) ?? await this.#recall?.finished(ref, parentId);
    if (child === undefined || child.parentId !== parentId) {
      throw new ToolError(
        "subagent.unknown_ref",
        `Cannot continue "${ref}": it is no finished subagent this session started (use a ref a task call returned)`,
      );
    }
    const { continueFrom: _c, ...kept } = child.request;
    return { request: { ...kept, prompt: request.prompt, continueFrom: ref }, file: child.file };
  }
}

/** Reopens a finished child's session and appends the next turn's prompt. */
export async function reopenChildLog(file: string, prompt: string, at: Date): Promise<SessionLog> {
  let opened;
  try {
    opened = await SessionStore.open(file);
  } catch (error) {
    throw new ToolError("subagent.unknown_ref", `Cannot continue that subagent: ${errorMessage(error)}`);
  }
  const log = new SessionLog(opened.store, opened.session.records);
  const turns = opened.session.records.filter((r) => r.type === "entry" && r.entry.kind === "turn").length;
  await log.append(
    { type: "entry", entry: { kind: "turn", turn: turns + 1, text: prompt }, at: at.toISOString() },
    { type: "message", message: { role: "user", content: prompt } },
  );
  return log;
}
