/**
 * @module
 * A real Controller over the DeepSeek simulator whose model calls the memory tools through
 * use_capability, as a model reaches them; the memory lives in the temp home's state.
 */
import { join } from "node:path";
import type { ApprovalChoice, ApprovalRequest, ReasonixEvent } from "../../src/control/events.ts";
import { memoryRoot, MemoryStore } from "../../src/tool/memory/store.ts";
import type { Fact } from "../../src/tool/memory/fact.ts";
import type { DeepSeekSim, ScriptedReply } from "./deepseek_sim.ts";
import { type Controller, withController } from "./controller_session.ts";
export { toolResults } from "./sim_messages.ts";

export type { Controller };

export interface MemorySession {
  sim: DeepSeekSim;
  controller: Controller;
  store: MemoryStore;
  /** Approval cards shown, in order. */
  asked: ApprovalRequest[];
  /** Closes the controller and resumes its session in a new one (same simulator and home). */
  resume(): Promise<Controller>;
}

export interface MemorySessionOptions {
  mode?: "read-only" | "auto" | "yolo";
  headless?: boolean;
  /** Answers to the approval cards, in order (then deny), or by card. */
  answers?: ApprovalChoice[] | ((request: ApprovalRequest) => ApprovalChoice);
  /** Runs before the session boots (seed facts). */
  before?: (store: MemoryStore) => Promise<void>;
  now?: () => Date;
}

export async function withMemorySession(
  script: ScriptedReply[],
  options: MemorySessionOptions,
  body: (session: MemorySession) => Promise<void>,
): Promise<void> {
  let store: MemoryStore | undefined;
  await withController({
    script,
    files: { "a.txt": "alpha\n" },
    headless: options.headless ?? false,
    flags: options.mode ? { permissionMode: options.mode } : {},
    ...(options.now ? { now: options.now } : {}),
    listen: false,
    prepare: async ({ home, ws }) => {
      store = new MemoryStore({ root: memoryRoot(home), workspace: ws });
      await options.before?.(store);
    },
  }, async (session) => {
    const asked: ApprovalRequest[] = [];
    const given = options.answers ?? [];
    const answers = typeof given === "function" ? given : (() => {
      const queue = [...given];
      return () => queue.shift() ?? "deny";
    })();
    session.controller.subscribe((event: ReasonixEvent) => {
      if (event.type !== "approval_requested") return;
      asked.push(event.request);
      const choice = answers(event.request);
      queueMicrotask(() => void session.controller.answerApproval(event.request.id, choice));
    });
    await body({
      sim: session.sim,
      controller: session.controller,
      store: store!,
      asked,
      resume: session.reboot,
    });
  });
}

export function memoryCall(tool: string, args: Record<string, unknown>): ScriptedReply {
  const call = { action: "call", capability_id: `tool:${tool}`, arguments: args };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

export function memoryDir(home: string): string {
  return join(home, "memory");
}

/** A `before` that seeds one project fact, "deploy" (id m-aaaaaaaaaaaa), with any fields overridden. */
export function seedDeploy(overrides: Partial<Fact> = {}): (store: MemoryStore) => Promise<void> {
  return async (store) => {
    await store.write({
      id: "m-aaaaaaaaaaaa",
      name: "deploy",
      description: "How to deploy staging",
      type: "project",
      scope: "project",
      revision: 1,
      created: "2026-11-01T00:00:00.000Z",
      updated: "2026-11-01T00:00:00.000Z",
      status: "active",
      body: "Deploy staging with `make deploy-staging`.",
      ...overrides,
    }, null);
  };
}
