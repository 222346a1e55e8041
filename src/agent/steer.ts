/**
 * @module
 * Mid-turn steering: text a person sends while a turn runs reaches the model at the turn's next request,
 * as a user message on the tail of the conversation (never in the prompt prefix). It is part of the
 * running turn, not the start of a new one.
 */

const STEER_OPEN = "[steering] The user sent this while you were working; take it into account from here:";

/** The user message that carries steering texts to the model. */
export function steerMessage(texts: readonly string[]): string {
  return `${STEER_OPEN}\n\n${texts.join("\n\n")}`;
}

export function isSteerMessage(content: string): boolean {
  return content.startsWith(`${STEER_OPEN}\n`);
}

/** What the person sent, read back from a steering message. */
export function steeredText(content: string): string {
  return content.slice(STEER_OPEN.length).replace(/^\n\n/, "");
}

/** What the turn loop needs of a steering queue. */
export interface SteerSource {
  /** Text is waiting for the next request. */
  pending(): boolean;
  /** The waiting texts, emptied; null when none wait. */
  take(): string[] | null;
}
