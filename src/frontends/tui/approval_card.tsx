/**
 * @module
 * A gated call waiting for the user: tool, arguments, the diff it would make, why it is asked, and
 * four choices picked with ←/→ + Enter or the digits 1–4 (keys decided by `approvalKey`); Tab opens a
 * line for a deny reason (typed as `approval_keys.ts` decides).
 */
import { Box, type Key, Text } from "ink";
import type { ApprovalChoice, ApprovalRequest } from "../../control/mod.ts";
import { type MessageKey, t } from "../../lib/i18n/mod.ts";
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

export interface ApprovalCardProps {
  request: ApprovalRequest;
  width: number;
  /** Index into APPROVAL_CHOICES of the highlighted choice. */
  selected: number;
  /** The deny reason being typed; null (or absent) while the choices are shown. */
  reason?: string | null;
}

export type ApprovalKeyResult = { selected: number } | { choice: ApprovalChoice } | { reason: "" } | null;

/** What a key does to an open card: move the highlight, answer, open the reason line, or nothing. */
export function approvalKey(input: string, key: Key, selected: number): ApprovalKeyResult {
  const count = APPROVAL_CHOICES.length;
  if (key.tab && !key.shift) return { reason: "" };
  if (key.leftArrow || key.tab) return { selected: (selected + count - 1) % count };
  if (key.rightArrow) return { selected: (selected + 1) % count };
  if (key.return) return { choice: APPROVAL_CHOICES[selected]! };
  if (/^[1-4]$/.test(input)) return { choice: APPROVAL_CHOICES[Number(input) - 1]! };
  return null;
}

/** The card itself; the app owns the keyboard (see approvalKey) so no key is lost while it mounts. */
export function ApprovalCard({ request, width, selected, reason = null }: ApprovalCardProps) {
  const { palette } = useTheme();
  const subject = request.subject ?? request.arguments;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={palette.warning} paddingX={1}>
      <Text bold color={palette.warning}>{t("approval.title", { tool: reveal(request.tool) })}</Text>
      <Text wrap="truncate-end">{clip(oneLine(reveal(subject)), Math.max(8, width - 4), stringWidth)}</Text>
      {request.preview
        ? <DiffView change={request.preview} width={width - 4} maxLines={PREVIEW_LINES} />
        : null}
      <Text color={palette.muted}>{sanitize(request.explanation.reason)}</Text>
      {reason === null
        ? (
          <Box>
            {APPROVAL_CHOICES.map((choice, index) => (
              <Text
                key={choice}
                inverse={index === selected}
                color={index === selected ? palette.accent : undefined}
              >
                {`${index === selected ? "›" : " "}${index + 1} ${t(LABELS[choice])} `}
              </Text>
            ))}
          </Box>
        )
        : <Text>{`${t("approval.reason_prompt")} ${sanitize(reason)}▏`}</Text>}
      <Text color={palette.muted}>{t(reason === null ? "approval.hint" : "approval.reason_hint")}</Text>
    </Box>
  );
}
