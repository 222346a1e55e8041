/**
 * @module
 * The recall session: a scripted long session through the simulator with a small context window, in
 * which the user states 20 facts in the first turns and then works for hundreds of turns, so the
 * context is compacted several times. Shared by tests/control/recall_test.ts (every fact still
 * verbatim in the request bytes) and the bench (cost and cache hit ratio around each compaction).
 */
import { bootController } from "../../src/control/boot.ts";
import type { ReasonixEvent } from "../../src/control/events.ts";
import { type Paths, resolvePaths } from "../../src/config/paths.ts";
import { isSummaryPrompt } from "../../src/agent/compaction.ts";
import { DeepSeekSim, type RecordedRequest } from "./deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "./cli.ts";

const SUBJECTS = [
  "staging database port",
  "release branch",
  "on-call engineer",
  "CI runner label",
  "feature flag for search",
  "S3 bucket for exports",
  "retry limit of the queue",
  "metrics namespace",
  "timezone of the reports",
  "minimum Node version",
  "code owner of billing",
  "cache TTL in seconds",
  "name of the error budget dashboard",
  "log retention in days",
  "default page size",
  "API version header",
  "license of the SDK",
  "deploy window",
  "sandbox account id",
  "font of the docs site",
];

/** The 20 facts the user states, one per early turn, as typed. */
export const RECALL_FACTS: readonly string[] = SUBJECTS.map((subject, i) =>
  `Remember this: the ${subject} is value-${(i + 1) * 7919 % 10007}-${subject.length}.`
);

export interface RecallOptions {
  /** User turns in all (default 300). */
  turns?: number;
  /** The facts of the first turns (default RECALL_FACTS). */
  facts?: readonly string[];
  /** The work request of a later turn (default `recallTurnText`). */
  step?: (turn: number) => string;
  /** Runs after the session closed, before its home is removed (read its files). */
  inspect?: (where: { paths: Paths; workspace: string }) => Promise<void>;
  /** `context_window` of the model (default 12000 tokens). */
  window?: number;
}

export interface RecallRun {
  requests: RecordedRequest[];
  events: ReasonixEvent[];
  /** The index in `requests` of the first request after each compaction. */
  compactionsBefore: number[];
  failures: number;
}

/** The simulator's answer in the recall session, from the request alone (any client can be scripted with it). */
export function recallAnswer(request: RecordedRequest): { content: string } {
  // deno-lint-ignore no-explicit-any
  const messages: any[] = request.json.messages;
  const last = messages.at(-1);
  const texts = messages.filter((m) => m.role === "user" && typeof m.content === "string").map((m) =>
    m.content
  );
  const step = texts.map((text: string) => /^Step (\d+):/.exec(text)?.[1]).filter(Boolean).at(-1) ?? "0";
  if (last.role === "user" && typeof last.content === "string" && isSummaryPrompt(last.content)) {
    return {
      content: `Summary: the user is working through numbered refactor steps; last seen step ${step}.`,
    };
  }
  return {
    content: `Step ${step} done: renamed the helpers, updated two call sites, tests pass. ` +
      "ok ".repeat(40),
  };
}

/** The user's text of turn `turn` (1-based): a fact for the first 20 turns, then a work request. */
export function recallTurnText(turn: number): string {
  return RECALL_FACTS[turn - 1] ?? `Step ${turn}: continue the refactor with module ${turn}.`;
}

export async function runRecallSession(options: RecallOptions = {}): Promise<RecallRun> {
  const turns = options.turns ?? 300;
  const sim = await DeepSeekSim.start({ script: recallAnswer });
  const home = await makeHome({
    simUrl: sim.url,
    extraToml: `[model_overrides.deepseek-flash]\ncontext_window = ${options.window ?? 12000}\n`,
  });
  const ws = await makeWorkspace({ "README.md": "recall\n" });
  const paths = resolvePaths({ REASONIX_HOME: home });
  const controller = await bootController({ cwd: ws, headless: true, env: {}, paths });
  const events: ReasonixEvent[] = [];
  const compactionsBefore: number[] = [];
  controller.subscribe((event) => {
    events.push(event);
    if (event.type === "compaction") compactionsBefore.push(sim.requests.length);
  });
  let failures = 0;
  let closed = false;
  try {
    for (let turn = 1; turn <= turns; turn++) {
      const facts = options.facts ?? RECALL_FACTS;
      const text = facts[turn - 1] ?? (options.step ?? recallTurnText)(turn);
      const outcome = await controller.runTurn(text);
      if (outcome.subtype !== "success") failures++;
    }
    if (options.inspect) {
      closed = true;
      await controller.close();
      await options.inspect({ paths, workspace: await Deno.realPath(ws) });
    }
  } finally {
    if (!closed) await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
  return { requests: sim.requests, events, compactionsBefore, failures };
}
