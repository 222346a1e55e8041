/**
 * @module
 * A tool call as a compact card: status icon, name, key argument, duration, and the result folded
 * to its first lines. An edit's file change shows as a diff below the card, folded to one line.
 */
import { Box, Text } from "ink";
import stringWidth from "string-width";
import type { ToolStatus, TranscriptEntry } from "../transcript_types.ts";
import { type MessageKey, t } from "../../../lib/i18n/mod.ts";
import type { Palette } from "../theme.ts";
import { useTheme } from "./theme_context.ts";
import { diffSize, DiffView } from "./diff_view.tsx";
import type { FileChange } from "../../../tool/tool.ts";
import { clip, formatDuration, keyArgument, reveal, sanitize } from "./format.ts";

type ToolEntry = Extract<TranscriptEntry, { kind: "tool" }>;

export interface ToolCardProps {
  entry: ToolEntry;
  width: number;
}

const FOLDED_OUTPUT_LINES = 3;

const ICONS: Record<ToolStatus, string> = { running: "◌", ok: "✓", error: "✗", denied: "⊘" };
const LABELS: Record<ToolStatus, MessageKey> = {
  running: "tool.running",
  ok: "tool.ok",
  error: "tool.error",
  denied: "tool.denied",
};

function statusColor(status: ToolStatus, palette: Palette): string | undefined {
  if (status === "ok") return palette.success;
  if (status === "running") return palette.accent;
  return status === "error" ? palette.error : palette.warning;
}

export function ToolCardView({ entry, width }: ToolCardProps) {
  const { palette } = useTheme();
  const color = statusColor(entry.status, palette);
  const duration = entry.durationMs !== undefined ? ` · ${formatDuration(entry.durationMs)}` : "";
  const tail = `${duration}${entry.code ? ` · ${entry.code}` : ""}` || runningTail(entry, width);
  const head = `${ICONS[entry.status]} ${reveal(entry.name)}`;
  const room = Math.max(8, width - stringWidth(head) - stringWidth(tail) - 2);
  const argument = clip(keyArgument(entry.arguments), room, stringWidth);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text color={color} bold>{head}</Text>
        {argument ? <Text>{` ${argument}`}</Text> : null}
        <Text color={palette.muted}>{tail}</Text>
      </Text>
      <ToolOutput entry={entry} width={width} palette={palette} />
      {entry.change ? <ChangeView change={entry.change} folded={entry.folded} width={width} /> : null}
    </Box>
  );
}

/** ` · running`, or what the running call last reported (a server's text: controls shown as marks). */
function runningTail(entry: ToolEntry, width: number): string {
  if (entry.status !== "running" || !entry.progress) return ` · ${t(LABELS[entry.status])}`;
  return ` · ${clip(reveal(entry.progress), Math.max(8, Math.floor(width / 2)), stringWidth)}`;
}

/** An edit's diff: one line with its size while folded (Ctrl+O unfolds it), the whole diff unfolded. */
function ChangeView({ change, folded, width }: { change: FileChange; folded: boolean; width: number }) {
  const { palette } = useTheme();
  if (!folded) {
    return (
      <Box paddingLeft={2}>
        <DiffView change={change} width={width - 2} />
      </Box>
    );
  }
  const { added, removed } = diffSize(change);
  const line = t("tool.diff_folded", { path: reveal(change.path), added, removed });
  return (
    <Text color={palette.muted} wrap="truncate-end">
      {`  ⎿ ${clip(line, Math.max(1, width - 4), stringWidth)}`}
    </Text>
  );
}

function ToolOutput({ entry, width, palette }: { entry: ToolEntry; width: number; palette: Palette }) {
  if (entry.output === undefined || entry.change) return null;
  const lines = sanitize(entry.output).replace(/\s+$/, "").split("\n");
  if (lines.length === 1 && lines[0] === "") {
    return <Text color={palette.muted}>{`  ⎿ ${t("tool.no_output")}`}</Text>;
  }
  const shown = entry.folded ? lines.slice(0, FOLDED_OUTPUT_LINES) : lines;
  const color = entry.status === "error" ? palette.error : palette.muted;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {shown.map((line, index) => (
        <Text key={index} color={color} wrap="truncate-end">
          {`${index === 0 ? "⎿ " : "  "}${clip(line, Math.max(1, width - 4), stringWidth)}`}
        </Text>
      ))}
      {shown.length < lines.length
        ? (
          <Text color={palette.muted}>
            {`  ${t("tool.more_lines", { count: lines.length - shown.length })}`}
          </Text>
        )
        : null}
    </Box>
  );
}
