/**
 * @module
 * Refs after a restart: the pool forgets its children when the process ends, but each child's session stays,
 * linked to the session that started it. An unknown ref `subagent:<id>` resolves from that file, only when
 * its links lead back to this conversation: for reading, through any chain of children of this session; for
 * continuing, only when the caller's own session started it (as in memory). The child's link records the
 * request it ran with (read-only, write_paths, tools…), so a continued child keeps them; a child recorded
 * before links carried it can be read but not continued.
 */
import { z } from "zod";
import { type ChildSession, loadChildSession } from "../session/child_link.ts";
import { ToolError } from "../tool/tool.ts";
import type { SubagentRequest } from "../tool/subagent_port.ts";
import type { FinishedChild } from "./subagent_continue.ts";
import { earlierChildren } from "./subagent_earlier.ts";
import type { ChildSummary } from "./subagent_pool.ts";

/** Links followed from a child up to this conversation; deeper than any `max_subagent_depth` in use. */
const MAX_LINKS = 16;
const REF = /^subagent:(.+)$/;

export interface RecallScope {
  sessionsDir: string;
  /** The workspace root whose sessions directory holds the children. */
  workspace: string;
  /** The session of this conversation (depth 0). */
  conversation: string;
}

const texts = z.array(z.string());
const storedRequestSchema = z.object({
  readOnly: z.boolean(),
  description: z.string().optional(),
  model: z.string().optional(),
  effort: z.string().optional(),
  tools: texts.optional(),
  writePaths: texts.optional(),
  maxSteps: z.number().int().positive().optional(),
  profile: z.object({
    name: z.string(),
    model: z.string().optional(),
    effort: z.string().optional(),
    readOnly: z.boolean().optional(),
    allowedTools: texts.optional(),
  }).optional(),
});

/** How a child ran, as its link records it: the request without its prompt, ref and profile body. */
export type StoredRequest = Omit<SubagentRequest, "prompt" | "continueFrom" | "profile"> & {
  profile?: Omit<NonNullable<SubagentRequest["profile"]>, "body">;
};

export function storedRequest(request: SubagentRequest): StoredRequest {
  const { prompt: _p, continueFrom: _c, profile, ...kept } = request;
  if (profile === undefined) return kept;
  const { body: _b, ...named } = profile;
  return { ...kept, profile: named };
}

export class ChildRecall {
  readonly #scope: RecallScope;

  constructor(scope: RecallScope) {
    this.#scope = scope;
  }

  /** The children of this conversation an earlier process started (for `/tree` after a restart). */
  earlier(): Promise<ChildSummary[]> {
    const { sessionsDir, workspace, conversation } = this.#scope;
    return earlierChildren(sessionsDir, workspace, conversation);
  }

  /** The last answer of a child of this conversation (at any depth); undefined for any other ref. */
  async answer(ref: string): Promise<string | undefined> {
    const child = await this.#child(ref);
    if (child?.answer === undefined || !(await this.#ours(child))) return undefined;
    return child.answer;
  }

  /** A finished child `parentId` started, with the request it ran with; undefined for any other ref. */
  async finished(ref: string, parentId: string): Promise<FinishedChild | undefined> {
    const child = await this.#child(ref);
    if (child?.answer === undefined || child.parent !== parentId || !(await this.#ours(child))) {
      return undefined;
    }
    const stored = storedRequestSchema.safeParse(child.link.request);
    if (!stored.success) {
      throw new ToolError(
        "subagent.not_continuable",
        `Cannot continue "${ref}": its session does not record how it ran (an older Reasonix started it); ` +
          "read its answer with read_subagent_result and start a new task",
      );
    }
    const { profile, ...kept } = stored.data as StoredRequest;
    const request: SubagentRequest = {
      ...kept,
      prompt: "",
      ...(profile ? { profile: { ...profile, body: child.system ?? "" } } : {}),
    };
    return { file: child.file, parentId, request };
  }

  #child(ref: string): Promise<ChildSession | undefined> {
    const id = REF.exec(ref)?.[1];
    if (id === undefined) return Promise.resolve(undefined);
    return loadChildSession(this.#scope.sessionsDir, { workspace: this.#scope.workspace, id });
  }

  /** Whether the chain of parents from `child` reaches this conversation. */
  async #ours(child: ChildSession): Promise<boolean> {
    let parent = child.parent;
    for (let step = 0; step < MAX_LINKS; step++) {
      if (parent === this.#scope.conversation) return true;
      const up = await loadChildSession(this.#scope.sessionsDir, {
        workspace: this.#scope.workspace,
        id: parent,
      });
      if (up === undefined) return false;
      parent = up.parent;
    }
    return false;
  }
}
