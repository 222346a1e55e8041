/**
 * @module
 * The input history a face offers on Up/Down: per workspace, loaded once when the face starts.
 */
import type { Paths } from "../config/paths.ts";
import { InputHistory } from "../session/input_history.ts";

/** What a face needs of the history: the lines so far (oldest first) and a way to add one. */
export interface HistoryPort {
  entries(): string[];
  add(line: string): Promise<void>;
}

export async function openInputHistory(paths: Paths, workspace: string): Promise<HistoryPort> {
  const history = new InputHistory(paths.sessionsDir, workspace);
  await history.load();
  return history;
}
