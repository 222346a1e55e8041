/**
 * @module
 * What the model should be told when the world changed between two turns of one session (a resume on
 * another day, another branch, another model or mode). The notes ride the tail of the next user
 * message, so nothing before it changes and the cached prefix survives.
 */
import type { SessionFacts } from "./context.ts";

export interface TurnFacts extends SessionFacts {
  model: string;
  permissionMode: string;
}

export function factChanges(before: TurnFacts, after: TurnFacts): string[] {
  const notes: string[] = [];
  if (before.date !== after.date) {
    notes.push(`The date is now ${after.date} (the session started ${before.date}).`);
  }
  if ((before.gitBranch ?? "") !== (after.gitBranch ?? "")) {
    notes.push(`The git branch is now ${after.gitBranch ?? "(none)"} (was ${before.gitBranch ?? "(none)"}).`);
  }
  if (before.model !== after.model) {
    notes.push(`This turn is answered by ${after.model} (was ${before.model}).`);
  }
  if (before.permissionMode !== after.permissionMode) {
    notes.push(`The permission mode is now ${after.permissionMode} (was ${before.permissionMode}).`);
  }
  const extraBefore = (before.extraWritable ?? []).join(", ");
  const extraAfter = (after.extraWritable ?? []).join(", ");
  if (extraBefore !== extraAfter) {
    notes.push(`Extra writable directories are now: ${extraAfter || "(none)"}.`);
  }
  return notes;
}

export function withTurnNotes(text: string, notes: readonly string[]): string {
  if (notes.length === 0) return text;
  return `${text}\n\n<turn-context>\n${notes.join("\n")}\n</turn-context>`;
}

export interface TodoLike {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

const REMINDED_TODOS = 5;

/** A one-line reminder of the unfinished todo items, or null when there are none. */
export function todoReminder(todos: readonly TodoLike[]): string | null {
  const open = todos.filter((todo) => todo.status !== "completed");
  if (open.length === 0) return null;
  const shown = open.slice(0, REMINDED_TODOS).map((todo) =>
    `${todo.status === "in_progress" ? "[>]" : "[ ]"} ${todo.content}`
  );
  const more = open.length > REMINDED_TODOS ? `; and ${open.length - REMINDED_TODOS} more` : "";
  return `Your todo list has ${open.length} unfinished item${open.length === 1 ? "" : "s"}: ${
    shown.join("; ")
  }${more}.`;
}
