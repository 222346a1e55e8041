/**
 * @module
 * The open approval card's state: the highlighted choice and how far its diff is scrolled, both
 * reset when another request comes, and the card sized to the rows the screen leaves it.
 */
import type { Key } from "ink";
import { useState } from "react";
import type { ApprovalChoice, ApprovalRequest } from "../../control/mod.ts";
import { ApprovalCard, approvalKey, cardRows, scrollDiff } from "./approval_card.tsx";

export interface ApprovalLayout {
  width: number;
  rows: number;
  /** Unsettled transcript entries drawn above the card (running tools). */
  unsettled: number;
  /** Whether the spinner line shows under the card. */
  activity: boolean;
}

export function useApprovalCard(
  controller: { answerApproval(id: string, choice: ApprovalChoice): Promise<boolean> },
  pending: ApprovalRequest | null | undefined,
  layout: ApprovalLayout,
) {
  const [choice, setChoice] = useState({ id: "", index: 0, scroll: 0 });
  const current = pending && choice.id === pending.id ? choice : { index: 0, scroll: 0 };
  const maxRows = cardRows(layout.rows, layout.unsettled, layout.activity);
  const onKey = (input: string, key: Key): void => {
    if (!pending) return;
    const action = approvalKey(input, key, current.index);
    if (action && "choice" in action) void controller.answerApproval(pending.id, action.choice);
    else if (action && "scroll" in action) {
      const scroll = scrollDiff(pending, current.scroll + action.scroll, maxRows, layout.width);
      setChoice({ id: pending.id, index: current.index, scroll });
    } else if (action) setChoice({ id: pending.id, index: action.selected, scroll: current.scroll });
  };
  const card = pending
    ? (
      <ApprovalCard
        request={pending}
        width={layout.width}
        selected={current.index}
        scroll={current.scroll}
        maxRows={maxRows}
      />
    )
    : null;
  return { card, onKey };
}
