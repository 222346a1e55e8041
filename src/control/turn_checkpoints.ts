/**
 * @module
 * The Controller's side of checkpoints: open one per user turn (labelled with the prompt, linked from
 * the session by a `checkpoint` event) and record each planned write's first-touch content in it.
 */
import { type Checkpoint, checkpointDirFor, CheckpointStore } from "../session/checkpoints.ts";
import type { SessionRecord } from "../session/store.ts";

/** Where the checkpoint events go: the session's one writer. */
interface SessionWriter {
  readonly file: string;
  append(record: SessionRecord): Promise<unknown>;
}
import { CHECKPOINT_EVENT } from "../session/turns.ts";
import type { FileTouch, WriteObserver } from "../tool/tool.ts";

export const DEFAULT_RETENTION_DAYS = 30;

export class TurnCheckpoints implements WriteObserver {
  #store: CheckpointStore;
  #session: SessionWriter;
  #current: Checkpoint | null = null;
  #pruned = false;
  #retentionDays: number;

  constructor(session: SessionWriter, retentionDays = DEFAULT_RETENTION_DAYS) {
    this.#session = session;
    this.#store = new CheckpointStore(checkpointDirFor(session.file));
    this.#retentionDays = retentionDays;
  }

  async open(prompt: string, at: Date): Promise<void> {
    if (!this.#pruned) {
      this.#pruned = true;
      await this.#store.prune(this.#retentionDays, at).catch(() => {});
    }
    this.#current = await this.#store.open("turn", prompt, { at });
    await this.#session.append({
      type: "event",
      name: CHECKPOINT_EVENT,
      data: { id: this.#current.id },
      at: at.toISOString(),
    });
  }

  async beforeWrite(touches: readonly FileTouch[]): Promise<void> {
    if (this.#current === null || touches.length === 0) return;
    await this.#store.record(this.#current, touches);
  }
}
