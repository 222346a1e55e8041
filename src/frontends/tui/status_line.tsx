/**
 * @module
 * One line under the input: model, permission mode, session cache-hit share and cost.
 */
import { Text } from "ink";
import type { StatusLine } from "./state.ts";
import { t } from "../../lib/i18n/mod.ts";
import { useTheme } from "./components/theme_context.ts";
import { formatCost } from "./components/usage_receipt.tsx";

export interface StatusLineProps {
  status: StatusLine;
  mode: string;
  /** A transient note (e.g. "press Ctrl+C again to quit") shown instead of the busy hint. */
  note?: string | null;
}

export function statusText(status: StatusLine, mode: string): string {
  const hit = status.sessionPromptTokens > 0
    ? Math.round(status.sessionHitTokens / status.sessionPromptTokens * 100)
    : 0;
  const cost = status.costSession === null
    ? "—"
    : `${formatCost(status.costSession)}${status.currency ? ` ${status.currency}` : ""}`;
  return [status.model, mode, t("status.hit", { hit }), t("status.cost", { cost })].join(" · ");
}

export function StatusLineView({ status, mode, note }: StatusLineProps) {
  const { palette } = useTheme();
  const extra = note ?? (status.busy ? t("status.busy") : "");
  return (
    <Text wrap="truncate-end">
      <Text color={palette.muted}>{statusText(status, mode)}</Text>
      {extra ? <Text color={palette.warning}>{`  ${extra}`}</Text> : null}
    </Text>
  );
}
