/**
 * @module
 * A booted session against the simulator whose replies are routed by conversation: the parent's
 * requests take the "parent" script, a child's take the script named by its task prompt, each indexed
 * by how many assistant messages that conversation already holds. Children run concurrently, so an
 * array script consumed in arrival order would not do.
 */
import { bootController } from "../../src/control/boot.ts";
import type { ReasonixEvent } from "../../src/control/events.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { CHILD_PROMPT } from "../../src/control/subagent_child.ts";
import { DeepSeekSim, type RecordedRequest, type Responder, type ScriptedReply } from "./deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "./cli.ts";
import { hostEnv } from "./host_env.ts";

export type Controller = Awaited<ReturnType<typeof bootController>>;

export interface SubagentSession {
  sim: DeepSeekSim;
  ws: string;
  home: string;
  events: ReasonixEvent[];
  controller: Controller;
}

type Message = { role: string; content: string };

/** A child's first messages: CHILD_PROMPT (or a profile's body), then the workspace and what it may change. */
export function isChild(request: RecordedRequest): boolean {
  const messages = request.json.messages as Message[];
  return messages[0]?.content === CHILD_PROMPT ||
    /^<session-context>\nWorkspace: [^\n]*\nYou may (only read|change only)/.test(messages[1]?.content ?? "");
}

/** The child's task prompt (its first turn), or "parent". */
export function conversationOf(request: RecordedRequest): string {
  return isChild(request) ? (request.json.messages as Message[])[2]!.content : "parent";
}

export function calls(...list: [string, Record<string, unknown>][]): ScriptedReply {
  return {
    reasoning: "call",
    toolCalls: list.map(([name, args]) => ({ name, arguments: JSON.stringify(args) })),
  };
}

export function capability(id: string, args: Record<string, unknown>): [string, Record<string, unknown>] {
  return ["use_capability", { action: "call", capability_id: `tool:${id}`, arguments: args }];
}

export function answer(text: string, extra: Partial<ScriptedReply> = {}): ScriptedReply {
  return { reasoning: "done", content: text, ...extra };
}

/** Tool messages of the last request of one conversation. */
export function toolResults(sim: DeepSeekSim, conversation: string): string[] {
  const request = sim.requests.findLast((r) => conversationOf(r) === conversation);
  const messages = (request?.json.messages ?? []) as Message[];
  return messages.filter((m) => m.role === "tool").map((m) => m.content);
}

/** A reply, or one computed from the request it answers (to quote a ref the previous result named). */
export type Step = ScriptedReply | ((request: RecordedRequest) => ScriptedReply);

/** Replies by conversation (`conversation` names it), each indexed by the assistant messages it holds. */
export function routed(
  scripts: Record<string, Step[]>,
  conversation: (request: RecordedRequest) => string = conversationOf,
): Responder {
  return (request) => {
    const messages = request.json.messages as Message[];
    const turn = messages.filter((m) => m.role === "assistant").length;
    const step = scripts[conversation(request)]?.[turn] ?? answer("(no script)");
    return typeof step === "function" ? step(request) : step;
  };
}

export async function withSubagents(
  setup: {
    scripts: Record<string, Step[]>;
    files?: Record<string, string>;
    toml?: string;
    mode?: string;
    /** false: a face answers approvals (the default refuses whatever would ask). */
    headless?: boolean;
  },
  body: (session: SubagentSession) => Promise<void>,
): Promise<void> {
  const sim = await DeepSeekSim.start({ script: routed(setup.scripts) });
  const home = await makeHome({ simUrl: sim.url, ...(setup.toml ? { extraToml: setup.toml } : {}) });
  const ws = await makeWorkspace(setup.files ?? { "a.txt": "alpha\n" });
  const events: ReasonixEvent[] = [];
  const controller = await bootController({
    cwd: ws,
    headless: setup.headless ?? true,
    env: hostEnv(),
    paths: resolvePaths({ REASONIX_HOME: home }),
    flags: { permissionMode: setup.mode ?? "auto" },
  });
  controller.subscribe((event) => events.push(event));
  try {
    await body({ sim, ws, home, events, controller });
  } finally {
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
}

/** The last tool message of a request. */
export function lastToolResult(request: RecordedRequest): string {
  return (request.json.messages as Message[]).findLast((m) => m.role === "tool")?.content ?? "";
}

/** Resolves once `predicate` holds for an event (checked on every new one). */
export async function eventually(events: readonly ReasonixEvent[], predicate: (e: ReasonixEvent) => boolean) {
  for (let i = 0; i < 500; i++) {
    const found = events.find(predicate);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the awaited event never came");
}

export function subagentEvents(events: readonly ReasonixEvent[]) {
  return events.filter((e): e is Extract<ReasonixEvent, { type: "subagent" }> => e.type === "subagent");
}
