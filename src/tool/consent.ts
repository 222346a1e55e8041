/**
 * @module
 * A fresh, one-off approval from a person for a call no permission mode may let through on its own (a
 * `history` search across every workspace): asked even in auto or yolo, never remembered as a grant. A
 * context without it (a subagent, an embedding) or a headless run cannot give one, so the tool refuses.
 */
export interface ConsentAsk {
  /** The model's call id, so faces tie the card to the call. */
  callId: string;
  tool: string;
  /** The call's arguments as JSON, for the card. */
  arguments: string;
  /** What the card names (`history search "…" in every workspace`). */
  subject: string;
  /** Why a person must say yes. */
  reason: string;
}

export type ConsentAnswer =
  | { kind: "approved" }
  | { kind: "declined"; reason?: string }
  | { kind: "cancelled" }
  | { kind: "unanswerable" };

export interface Consent {
  /** False in a headless run (`reasonix run`): every ask fails closed. */
  interactive: boolean;
  /** Asks a person, whatever the permission mode; never remembers the answer. */
  confirm(ask: ConsentAsk, signal: AbortSignal): Promise<ConsentAnswer>;
}

/** What a refusal adds when the person said why they declined: `; they said: "…"`, else nothing. */
export function theirReason(reason: string | undefined): string {
  return reason === undefined ? "" : `; they said: ${JSON.stringify(reason)}`;
}
