/**
 * @module
 * A session's memory: the index block its session-context message starts with, the access the memory
 * tools get (the approval desk asked for every change the policy does not let through, in every
 * permission mode), and the recall note added before each user turn. Changes reach the model as tail
 * notes; the prefix never changes mid-session.
 */
import type { Paths } from "../config/paths.ts";
import type { MemoryAccess, MemoryAnswer, MemoryAsk } from "../tool/memory/access.ts";
import type { Fact } from "../tool/memory/fact.ts";
import { memoryIndexBlock, recallNote } from "../tool/memory/index_text.ts";
import { recallFacts } from "../tool/memory/recall.ts";
import { memoryRoot, MemoryStore } from "../tool/memory/store.ts";
import type { Approvals } from "./approvals.ts";
import { askOnce } from "./consent.ts";
import { registerMemoryTools } from "../tool/memory/mod.ts";
import type { ToolRegistry } from "../tool/registry.ts";

export interface SessionMemory {
  store: MemoryStore;
  /** The block for the session-context message; null when nothing is remembered (or it cannot be read). */
  indexBlock: string | null;
  /** Warnings for the person starting the session (an unreadable memory directory). */
  warnings: string[];
}

/** Loads the index and adds the memory tools to `registry` (behind use_capability). */
export async function loadSessionMemory(
  paths: Paths,
  workspace: string,
  registry: ToolRegistry,
): Promise<SessionMemory> {
  registerMemoryTools(registry);
  const store = new MemoryStore({ root: memoryRoot(paths.stateHome), workspace });
  try {
    // `[tools] enabled` may leave the memory tools out: the index then names none.
    const tools = registry.get("memory") !== undefined;
    return { store, indexBlock: memoryIndexBlock(await store.list(), { tools }), warnings: [] };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { store, indexBlock: null, warnings: [`Remembered facts are not loaded: ${detail}`] };
  }
}

export interface MemoryWiring {
  access: MemoryAccess;
  /** The recall note for a user message, or null. */
  recall(text: string): Promise<string | null>;
  /** Where change notes go (the Controller's turn notes). */
  attach(tell: (note: string) => void): void;
}

export function memoryWiring(
  store: MemoryStore,
  options: { approvals: Approvals | undefined; interactive: boolean; now: () => Date },
): MemoryWiring {
  let tell: (note: string) => void = () => {};
  // Facts already shown this session (recalled or changed) are not recalled again.
  const shown = new Set<string>();
  const access: MemoryAccess = {
    store,
    interactive: options.interactive && options.approvals !== undefined,
    confirm: (ask, signal) => confirm(options.approvals, ask, signal),
    changed: (note) => tell(note),
    now: options.now,
  };
  return {
    access,
    attach(next) {
      tell = next;
    },
    async recall(text) {
      let facts: Fact[];
      try {
        facts = await store.list();
      } catch {
        return null;
      }
      const recalled = recallFacts(facts, text, { now: options.now(), skip: shown });
      for (const { fact } of recalled) shown.add(fact.id);
      return recalled.length > 0 ? recallNote(recalled) : null;
    },
  };
}

function confirm(
  approvals: Approvals | undefined,
  ask: MemoryAsk,
  signal: AbortSignal,
): Promise<MemoryAnswer> {
  return askOnce(approvals, {
    callId: ask.callId,
    tool: ask.tool,
    arguments: ask.arguments,
    subject: ask.subject,
    preview: ask.preview,
    explanation: {
      decision: "ask",
      tier: "write",
      rule: null,
      reason: `Memory: ${ask.reasons.join("; ")} (an approval covers this change only)`,
    },
    // Nothing to remember: every memory change the policy holds back is asked afresh.
    suggestedRule: null,
  }, signal);
}
