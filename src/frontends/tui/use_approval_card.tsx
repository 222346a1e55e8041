/**
 * @module
 * The open approval card: its keys (approval_keys.ts: highlight, deny reason, diff scroll) and the card
 * sized to the rows the screen leaves it.
 */
import type { Key } from "ink";
import type { ApprovalRequest } from "../../control/mod.ts";
import { ApprovalCard, cardRows, scrollDiff } from "./approval_card.tsx";
import { type ApprovalAnswerPort, useApprovalKeys } from "./approval_keys.ts";

export interface ApprovalLayout {
  width: number;
  rows: number;
  /** Unsettled transcript entries drawn above the card (running tools). */
  unsettled: number;
  /** Whether the spinner line shows under the card. */
  activity: boolean;
}

export function useApprovalCard(
  controller: ApprovalAnswerPort,
  pending: ApprovalRequest | null | undefined,
  layout: ApprovalLayout,
): { card: React.ReactNode; onKey(input: string, key: Key): boolean } {
  const maxRows = cardRows(layout.rows, layout.unsettled, layout.activity);
  const keys = useApprovalKeys(
    controller,
    pending,
    (request, wanted) => scrollDiff(request, wanted, maxRows, layout.width),
  );
  const card = pending
    ? <ApprovalCard request={pending} width={layout.width} maxRows={maxRows} {...keys.view} />
    : null;
  return { card, onKey: keys.onKey };
}
