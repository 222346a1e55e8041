/**
 * @module
 * The goal sidecar: `<session>.goal.json` beside the session's JSONL file holds its goal-mode state, so a
 * goal survives a restart. Written whole to a temporary file and renamed, so a crash leaves the old one.
 */
import { dirname } from "node:path";
import type { GoalSnapshot } from "../agent/events.ts";

const STATUSES = new Set(["active", "paused", "blocked", "complete", "stopped"]);
const CATEGORIES = new Set(["write", "simple", "research"]);
const COUNTS = [
  "revision",
  "turns",
  "budget",
  "tokens",
  "noProgress",
  "noProgressLimit",
  "extensions",
] as const;

export function goalFileFor(sessionFile: string): string {
  return sessionFile.replace(/\.jsonl$/, "") + ".goal.json";
}

/** The stored goal, or null when there is none; a file that is not a goal is an error naming it. */
export async function readGoalFile(sessionFile: string): Promise<GoalSnapshot | null> {
  const file = goalFileFor(sessionFile);
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const goal = parseGoal(text);
  if (!goal) throw new Error(`Cannot read the goal in ${file}: it is not a goal-mode state file`);
  return goal;
}

export async function writeGoalFile(sessionFile: string, goal: GoalSnapshot | null): Promise<void> {
  const file = goalFileFor(sessionFile);
  if (goal === null) {
    await Deno.remove(file).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    return;
  }
  // A new session is written at its first turn, which may come after the goal starts.
  await Deno.mkdir(dirname(file), { recursive: true });
  const temp = `${file}.tmp`;
  await Deno.writeTextFile(temp, JSON.stringify(goal, null, 2) + "\n");
  await Deno.rename(temp, file);
}

function parseGoal(text: string): GoalSnapshot | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const goal = value as Record<string, unknown>;
  if (typeof goal.id !== "string" || typeof goal.objective !== "string") return null;
  if (!STATUSES.has(String(goal.status)) || !CATEGORIES.has(String(goal.category))) return null;
  if (!COUNTS.every((key) => Number.isSafeInteger(goal[key]) && (goal[key] as number) >= 0)) return null;
  for (const key of ["stopCause", "detail"]) {
    if (goal[key] !== undefined && typeof goal[key] !== "string") return null;
  }
  return goal as unknown as GoalSnapshot;
}
