/**
 * @module
 * The keys of the open approval card: the highlight, the deny-reason line Tab opens, and the answer sent
 * through the port (a reason goes with the deny, and the Controller hands it to the model).
 */
import type { Key } from "ink";
import { useReducer, useRef } from "react";
import type { ApprovalChoice, ApprovalRequest } from "../../control/mod.ts";
import { approvalKey } from "./approval_card.tsx";

interface CardState {
  id: string;
  selected: number;
  /** The reason being typed; null while the choices are shown. */
  reason: string | null;
  /** First diff line shown. */
  scroll: number;
}

export interface ApprovalKeys {
  /** The card's highlight and reason line. */
  view: { selected: number; reason: string | null; scroll: number };
  /** Feeds a key to the open card; false when the key is not the card's (Esc and Ctrl+O go on to the app). */
  onKey(input: string, key: Key): boolean;
}

/** The Controller's `answerApproval`, the only thing the card calls. */
export interface ApprovalAnswerPort {
  answerApproval(id: string, choice: ApprovalChoice, reason?: string): Promise<boolean>;
}

export type ReasonStep = { text: string } | { back: true } | { send: true } | null;

/** A key on the reason line: Enter sends it, Esc goes back to the choices, text and Backspace edit it. */
export function reasonKey(typed: string, input: string, key: Key): ReasonStep {
  if (key.escape) return { back: true };
  if (key.return) return { send: true };
  if (key.backspace || key.delete) return { text: Array.from(typed).slice(0, -1).join("") };
  if (!input || key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow) return null;
  // deno-lint-ignore no-control-regex
  return { text: typed + input.replace(/[\r\n\t]/g, " ").replace(/[\x00-\x1f\x7f]/g, "") };
}

/**
 * The app's hook for the first waiting approval. The state lives in a ref so keys that arrive before
 * the next render (a paste, typed-ahead Enter) see every earlier key.
 */
export function useApprovalKeys(
  port: ApprovalAnswerPort,
  pending: ApprovalRequest | null | undefined,
  clampScroll: (request: ApprovalRequest, wanted: number) => number = () => 0,
): ApprovalKeys {
  const state = useRef<CardState>({ id: "", selected: 0, reason: null, scroll: 0 });
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  const current = (): CardState => {
    if (pending && state.current.id !== pending.id) {
      state.current = { id: pending.id, selected: 0, reason: null, scroll: 0 };
    }
    return state.current;
  };
  const set = (next: CardState) => {
    state.current = next;
    redraw();
  };
  const card = current();
  return {
    view: { selected: card.selected, reason: card.reason, scroll: card.scroll },
    onKey(input, key) {
      if (!pending) return false;
      const now = current();
      if (now.reason !== null) {
        const step = reasonKey(now.reason, input, key);
        if (step && "send" in step) void port.answerApproval(pending.id, "deny", now.reason);
        else if (step && "back" in step) set({ ...now, reason: null });
        else if (step) set({ ...now, reason: step.text });
        return true;
      }
      const action = approvalKey(input, key, now.selected);
      if (!action) return false;
      if ("choice" in action) void port.answerApproval(pending.id, action.choice);
      else if ("reason" in action) set({ ...now, reason: "" });
      else if ("scroll" in action) set({ ...now, scroll: clampScroll(pending, now.scroll + action.scroll) });
      else set({ ...now, selected: action.selected });
      return true;
    },
  };
}
