/**
 * @module
 * A gated call waiting for the user: tool, arguments, the diff it would make, why it is asked, and
 * four choices picked with ←/→ + Enter or the digits 1–4 (keys decided by `approvalKey`). On a short
 * terminal the diff is cut to the rows left (↑/↓ and PgUp/PgDn scroll it), so the title and the
 * choices always show.
 */
import { Box, type Key, Text } from "ink";
import type { ApprovalChoice, ApprovalRequest } from "../../control/mod.ts";
import { type MessageKey, t } from "../../lib/i18n/mod.ts";
import { numberedDiff } from "../../lib/diff/numbered.ts";
import { approvalTitle } from "./approval_title.ts";
import { useTheme } from "./components/theme_context.ts";
import { DiffView } from "./components/diff_view.tsx";
import { clip, oneLine, reveal, sanitize } from "./components/format.ts";
import stringWidth from "string-width";

export const APPROVAL_CHOICES: readonly ApprovalChoice[] = [
  "allow_once",
  "allow_session",
  "allow_always",
  "deny",
];

const LABELS: Record<ApprovalChoice, MessageKey> = {
  allow_once: "approval.allow_once",
  allow_session: "approval.allow_session",
  allow_always: "approval.allow_always",
  deny: "approval.deny",
};

const PREVIEW_LINES = 20;
/** Border (2), title, the diff's file line, choices, key hint; the subject and the reason come on top. */
const CARD_CHROME_ROWS = 6;
const PAGE = 5;

export interface ApprovalCardProps {
  request: ApprovalRequest;
  width: number;
  /** Index into APPROVAL_CHOICES of the highlighted choice. */
  selected: number;
  /** First diff line shown (see scrollDiff). */
  scroll?: number;
  /** Rows the whole card may take (see cardRows). */
  maxRows?: number;
  /** The deny reason being typed; null (or absent) while the choices are shown. */
  reason?: string | null;
}

export type ApprovalKeyResult =
  | { selected: number }
  | { choice: ApprovalChoice }
  | { scroll: number }
  | { reason: "" }
  | null;

/** What a key does to an open card: move the highlight, scroll the diff, answer, or nothing. */
export function approvalKey(input: string, key: Key, selected: number): ApprovalKeyResult {
  const count = APPROVAL_CHOICES.length;
  if (key.tab && !key.shift) return { reason: "" };
  if (key.leftArrow || key.tab) return { selected: (selected + count - 1) % count };
  if (key.rightArrow) return { selected: (selected + 1) % count };
  if (key.upArrow || key.downArrow) return { scroll: key.upArrow ? -1 : 1 };
  if (key.pageUp || key.pageDown) return { scroll: key.pageUp ? -PAGE : PAGE };
  if (key.return) return { choice: APPROVAL_CHOICES[selected]! };
  if (/^[1-4]$/.test(input)) return { choice: APPROVAL_CHOICES[Number(input) - 1]! };
  return null;
}

/**
 * Rows a card may take on a `rows`-high terminal: the frame stays one row short of the screen and
 * keeps the status line, the spinner line and one row per unsettled entry (a running tool) above.
 */
export function cardRows(rows: number, unsettled: number, activity: boolean): number {
  return rows - 1 - 1 - (activity ? 1 : 0) - unsettled;
}

/** Diff lines that fit in `maxRows`, at least one; a cut diff needs a mark row below, one above once scrolled. */
function diffWindow(request: ApprovalRequest, maxRows: number | undefined, width: number, scrolled: boolean) {
  const total = diffLength(request);
  const subject = subjectLine(request) === null ? 0 : 1;
  const chrome = CARD_CHROME_ROWS + subject + (request.destructive ? 1 : 0) +
    textRows(sanitize(request.explanation.reason), width - 4);
  const room = (maxRows ?? Infinity) - chrome;
  return Math.min(PREVIEW_LINES, total <= room ? total : Math.max(1, room - (scrolled ? 2 : 1)));
}

/** The call's subject, unless the diff's file line already says it. */
function subjectLine(request: ApprovalRequest): string | null {
  const subject = oneLine(reveal(request.subject ?? request.arguments));
  return request.preview && subject === reveal(request.preview.path) ? null : subject;
}

/** `wanted` kept between the first diff line and the last one that still fills the window. */
export function scrollDiff(request: ApprovalRequest, wanted: number, maxRows: number, width: number): number {
  const total = diffLength(request);
  return Math.max(0, Math.min(wanted, total - diffWindow(request, maxRows, width, wanted > 0)));
}

/** Terminal rows a text takes when wrapped at `width`. */
function textRows(text: string, width: number): number {
  const columns = Math.max(1, width);
  return text.split("\n").reduce((sum, line) => sum + Math.max(1, Math.ceil(stringWidth(line) / columns)), 0);
}

function diffLength(request: ApprovalRequest): number {
  const change = request.preview;
  return change ? numberedDiff(change.oldText ?? "", change.newText ?? "").length : 0;
}

/** The card itself; the app owns the keyboard (see approvalKey) so no key is lost while it mounts. */
export function ApprovalCard(
  { request, width, selected, scroll = 0, maxRows, reason = null }: ApprovalCardProps,
) {
  const { palette } = useTheme();
  const subject = subjectLine(request);
  const total = diffLength(request);
  const offset = scrollDiff(request, scroll, maxRows ?? Infinity, width);
  const window = diffWindow(request, maxRows, width, offset > 0);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={palette.warning} paddingX={1}>
      <Text bold color={palette.warning} wrap="truncate-end">
        {approvalTitle(request)}
      </Text>
      {subject === null
        ? null
        : <Text wrap="truncate-end">{clip(subject, Math.max(8, width - 4), stringWidth)}</Text>}
      {request.preview
        ? <DiffView change={request.preview} width={width - 4} maxLines={window} offset={offset} />
        : null}
      {request.destructive
        ? <Text color={palette.warning} wrap="truncate-end">{t("approval.destructive")}</Text>
        : null}
      <Text color={palette.muted}>{sanitize(request.explanation.reason)}</Text>
      {reason === null
        ? <ChoiceRow selected={selected} />
        : <Text wrap="truncate-start">{`${t("approval.reason_prompt")} ${sanitize(reason)}▏`}</Text>}
      <Text color={palette.muted} wrap="truncate-end">
        {t(
          reason !== null
            ? "approval.reason_hint"
            : window < total
            ? "approval.hint_scroll"
            : "approval.hint",
        )}
      </Text>
    </Box>
  );
}

function ChoiceRow({ selected }: { selected: number }) {
  const { palette } = useTheme();
  return (
    <Box>
      {APPROVAL_CHOICES.map((choice, index) => (
        <Text
          key={choice}
          inverse={index === selected}
          color={index === selected ? palette.accent : undefined}
          wrap="truncate-end"
        >
          {`${index === selected ? "›" : " "}${index + 1} ${t(LABELS[choice])} `}
        </Text>
      ))}
    </Box>
  );
}
