/**
 * @module
 * Folding after the fact. Settled entries are printed once through <Static> and cannot change, so
 * Ctrl+O re-prints the latest reasoning or tool entry below, toggled; one still on the live part of
 * the screen (streaming reasoning, a running tool) is toggled in place.
 */
import type { TranscriptEntry } from "./transcript_types.ts";

/** How entries settle: `verbose` keeps reasoning and tool results unfolded. */
export interface ViewSettings {
  showTurnUsage: boolean;
  /** false folds reasoning while it streams too. */
  showReasoning: boolean;
  verbose: boolean;
}

export const DEFAULT_VIEW: ViewSettings = { showTurnUsage: true, showReasoning: true, verbose: false };

type Foldable = Extract<TranscriptEntry, { kind: "reasoning" | "tool" }>;

interface FoldState {
  entries: TranscriptEntry[];
  live: TranscriptEntry | null;
  nextId: number;
}

/** Entries before the first running tool never change again, so <Static> may print them once. */
export function settledCount(entries: readonly TranscriptEntry[]): number {
  const running = entries.findIndex((entry) => entry.kind === "tool" && entry.status === "running");
  return running < 0 ? entries.length : running;
}

export function toggleLatestFold<S extends FoldState>(state: S): S {
  if (state.live?.kind === "reasoning") {
    return { ...state, live: { ...state.live, folded: !state.live.folded } };
  }
  const index = state.entries.findLastIndex(foldable);
  if (index < 0) return state;
  const entry = state.entries[index] as Foldable;
  if (index >= settledCount(state.entries)) {
    const entries = state.entries.map((item, at) =>
      at === index ? { ...entry, folded: !entry.folded } : item
    );
    return { ...state, entries };
  }
  const copy: Foldable = { ...entry, id: `e${state.nextId}`, folded: !entry.folded };
  return { ...state, entries: [...state.entries, copy], nextId: state.nextId + 1 };
}

function foldable(entry: TranscriptEntry): entry is Foldable {
  if (entry.kind === "reasoning") return entry.text.trim() !== "";
  return entry.kind === "tool" && (entry.output !== undefined || Boolean(entry.change));
}
