/**
 * @module
 * How the view follows a session switch (`/new`, `/resume`, `/model`): the transcript keeps what it
 * printed and gains a notice, the status line starts over; `/clear` also empties the transcript. A
 * redraw (a branch switch, a conversation rewind) replaces the transcript with the snapshot that follows.
 */
import type { ReasonixEvent } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";
import type { StatusLine, TuiState } from "./state.ts";

type SessionStarted = Extract<ReasonixEvent, { type: "session_started" }>;

/** `fresh` is the status line of a new view; the first session of a view adds no notice. */
export function startSession(state: TuiState, event: SessionStarted, fresh: StatusLine): TuiState {
  const figures = event.figures;
  const named = {
    model: event.model,
    provider: event.provider,
    ...(figures
      ? {
        turn: figures.turns,
        sessionHitTokens: figures.hitTokens,
        sessionPromptTokens: figures.promptTokens,
        costSession: figures.cost,
        currency: figures.currency,
      }
      : {}),
  };
  if (state.status.model === "") return { ...state, status: { ...state.status, ...named } };
  const reset = { live: null, status: { ...fresh, ...named }, turnTokens: { prompt: 0, hit: 0 } };
  if (event.redraw) return { ...state, ...reset, entries: [], approvals: [], questions: [] };
  const key = event.resumed ? "session.notice_resumed" : "session.notice_new";
  const text = t(key, { id: event.sessionId, model: event.model });
  const entries = [...state.entries, ...(state.live ? [state.live] : [])];
  return {
    ...state,
    ...reset,
    entries: [...entries, { kind: "notice", id: `e${state.nextId}`, level: "info", text }],
    approvals: [],
    questions: [],
    nextId: state.nextId + 1,
  };
}

export function clearTranscript(state: TuiState): TuiState {
  return { ...state, entries: [], live: null };
}
