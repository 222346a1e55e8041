/**
 * @module
 * The per-session state that planning tools share: the todo list and the active goal. It lives in
 * the Controller for the length of a session and reaches tools through ToolContext.state.
 */

export type TodoStatus = "pending" | "in_progress" | "completed";

export interface TodoItem {
  content: string;
  status: TodoStatus;
}

export interface Goal {
  id: string;
  objective: string;
  revision: number;
  status: "active" | "paused" | "complete" | "blocked";
  blockedReason?: string;
  /** Rounds the goal may run before it stops to report; absent or null means no limit. */
  maxGoalRounds?: number | null;
}

export interface SessionToolState {
  todos: TodoItem[];
  goal: Goal | null;
  /** What the user answered per `ask` decision_id, so the same decision is not asked twice. */
  decisions?: Record<string, string>;
}

export function newSessionToolState(): SessionToolState {
  return { todos: [], goal: null };
}
