/**
 * @module
 * Host notes: what a host policy tells the model mid-turn (verified delivery refusing a final answer),
 * carried as a user message on the tail of the conversation, never in the prompt prefix. The opening
 * marks it, so replay and compaction never take it for a turn the person typed.
 */

const HOST_NOTE_OPEN = "[host note]";

/** The user message that carries `text` from the host to the model. */
export function hostNote(text: string): string {
  return `${HOST_NOTE_OPEN} ${text}`;
}

export function isHostNote(content: string): boolean {
  return content.startsWith(`${HOST_NOTE_OPEN} `);
}
