/**
 * @module
 * The per-turn usage receipt: tokens in (with the cache hit share), tokens out, and the cost.
 */
import { Text } from "ink";
import type { UsageReceipt } from "../transcript_types.ts";
import { t } from "../../../lib/i18n/mod.ts";
import { useTheme } from "./theme_context.ts";
import { formatCount } from "./format.ts";

export function formatCost(cost: number): string {
  if (cost === 0) return "0";
  return cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2);
}

export function UsageReceiptView({ receipt }: { receipt: UsageReceipt }) {
  const { palette } = useTheme();
  const tokens = t("usage.receipt", {
    prompt: formatCount(receipt.promptTokens),
    hit: Math.round(receipt.hitRatio * 100),
    completion: formatCount(receipt.completionTokens),
  });
  const cost = receipt.cost === null
    ? ""
    : ` · ${t("usage.cost", { cost: formatCost(receipt.cost), currency: receipt.currency ?? "" }).trim()}`;
  return <Text color={palette.muted}>{`  ${tokens}${cost}`}</Text>;
}
