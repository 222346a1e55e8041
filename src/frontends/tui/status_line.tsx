/**
 * @module
 * One line under the input: model, permission mode, effort, context used, cache hits and cost (this
 * turn and the session), running background jobs. A narrow terminal drops the least important
 * parts first instead of wrapping.
 */
import { Text } from "ink";
import stringWidth from "string-width";
import type { StatusLine } from "./state.ts";
import type { StatusPort } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";
import { useTheme } from "./components/theme_context.ts";
import { formatCost } from "./components/usage_receipt.tsx";
import { sanitize } from "./components/format.ts";

/** What the Controller knows between events (its StatusPort). */
export interface StatusInfo {
  mode: string;
  effort?: string;
  contextWindow?: number | null;
  runningJobs?: number;
}

/** Read at every render, so an `/effort` shows at once; running jobs come from `jobs` events. */
export function statusInfo(port: StatusSource, runningJobs = 0): StatusInfo {
  return {
    mode: port.permissionMode,
    effort: port.effort,
    contextWindow: port.contextWindow,
    runningJobs,
  };
}

type StatusSource = Omit<StatusPort, "uiSettings" | "runningJobs"> & { permissionMode: string };

export interface StatusLineProps {
  status: StatusLine;
  port: StatusSource;
  width: number;
  /** A transient note (e.g. "press Ctrl+C again to quit") shown instead of the busy hint. */
  note?: string | null;
}

interface Part {
  text: string;
  /** Lower survives longer on a narrow terminal. */
  rank: number;
}

const SEPARATOR = " · ";

export function statusParts(status: StatusLine, info: StatusInfo): Part[] {
  const parts: (Part | null)[] = [
    { text: sanitize(status.model), rank: 0 },
    { text: info.mode, rank: 1 },
    info.effort ? { text: t("status.effort", { effort: info.effort }), rank: 6 } : null,
    contextPart(status, info.contextWindow),
    { text: cachePart(status), rank: 4 },
    { text: costPart(status), rank: 3 },
    info.runningJobs ? { text: t("status.jobs", { count: info.runningJobs }), rank: 5 } : null,
  ];
  return parts.filter((part): part is Part => part !== null);
}

/** The parts that fit `width`, in their order, dropping the highest rank first. */
export function fitStatus(parts: readonly Part[], width: number): string {
  let kept = [...parts];
  const measure = () => stringWidth(kept.map((part) => part.text).join(SEPARATOR));
  while (kept.length > 1 && measure() > width) {
    const drop = kept.reduce((worst, part) => part.rank > worst.rank ? part : worst);
    kept = kept.filter((part) => part !== drop);
  }
  return kept.map((part) => part.text).join(SEPARATOR);
}

export function statusText(status: StatusLine, info: StatusInfo, width = Infinity): string {
  return fitStatus(statusParts(status, info), width);
}

function contextPart(status: StatusLine, window: number | null | undefined): Part | null {
  if (!window || status.contextTokens <= 0) return null;
  const percent = Math.min(100, Math.round(status.contextTokens / window * 100));
  return { text: t("status.context", { percent }), rank: 2 };
}

function cachePart(status: StatusLine): string {
  const session = status.sessionPromptTokens > 0
    ? Math.round(status.sessionHitTokens / status.sessionPromptTokens * 100)
    : 0;
  const turn = status.turnHitRatio === null
    ? t("status.unknown")
    : `${Math.round(status.turnHitRatio * 100)}%`;
  return t("status.cache", { turn, session: `${session}%` });
}

function costPart(status: StatusLine): string {
  const money = (cost: number | null) => cost === null ? t("status.unknown") : formatCost(cost);
  const currency = status.currency ? ` ${status.currency}` : "";
  return t("status.cost", {
    turn: money(status.costTurn),
    session: `${money(status.costSession)}${currency}`,
  });
}

export function StatusLineView({ status, port, width, note }: StatusLineProps) {
  const { palette } = useTheme();
  const info = statusInfo(port, status.runningJobs);
  const extra = note ?? (status.busy ? t("status.busy") : "");
  const room = extra ? Math.max(10, width - stringWidth(extra) - 2) : width;
  return (
    <Text wrap="truncate-end">
      <Text color={palette.muted}>{statusText(status, info, room)}</Text>
      {extra ? <Text color={palette.warning}>{`  ${extra}`}</Text> : null}
    </Text>
  );
}
