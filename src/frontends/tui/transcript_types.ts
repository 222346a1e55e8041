/**
 * @module
 * What the transcript shows, one entry per visible block. The app reduces Controller events into
 * entries; the components render an entry without knowing where it came from.
 */
import type { FileChange } from "../../tool/tool.ts";
import type { TodoItem } from "../../tool/session_state.ts";

export type ToolStatus = "running" | "ok" | "error" | "denied";

export type NoticeLevel = "info" | "warning" | "error";

export interface UsageReceipt {
  promptTokens: number;
  hitTokens: number;
  missTokens: number;
  completionTokens: number;
  hitRatio: number;
  cost: number | null;
  currency: string | null;
}

export type TranscriptEntry =
  | { kind: "user"; id: string; text: string }
  | { kind: "reasoning"; id: string; text: string; streaming: boolean; folded: boolean }
  | {
    kind: "answer";
    id: string;
    text: string;
    streaming: boolean;
    /** The answer goes on in the next entry: its finished blocks settle while the tail streams. */
    continued?: boolean;
  }
  | {
    kind: "tool";
    id: string;
    callId: string;
    name: string;
    /** The call's arguments as the model produced them (JSON text). */
    arguments: string;
    status: ToolStatus;
    readOnly: boolean;
    durationMs?: number;
    output?: string;
    code?: string;
    folded: boolean;
    /** The file change an edit made or would make, for a coloured diff. */
    change?: FileChange | null;
    /** What the running call last reported (`3/10 · message`), unescaped; shown while it runs. */
    progress?: string;
  }
  | { kind: "todo"; id: string; items: readonly TodoItem[] }
  | { kind: "usage"; id: string; receipt: UsageReceipt }
  | { kind: "notice"; id: string; level: NoticeLevel; text: string }
  /** A unified diff as git prints it (`/diff`). */
  | { kind: "patch"; id: string; text: string };
