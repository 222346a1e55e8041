/**
 * @module
 * A file change as a coloured unified diff with line numbers in a gutter.
 */
import { Box, Text } from "ink";
import stringWidth from "string-width";
import type { FileChange } from "../../../tool/tool.ts";
import { numberedDiff, type NumberedLine } from "../../../lib/diff/numbered.ts";
import { type MessageKey, t } from "../../../lib/i18n/mod.ts";
import type { Palette } from "../theme.ts";
import { useTheme } from "./theme_context.ts";
import { clip, reveal } from "./format.ts";

export interface DiffViewProps {
  change: FileChange;
  width: number;
  /** Diff lines shown before the rest is summarised; unlimited when absent. */
  maxLines?: number;
  /** Diff lines skipped at the top (a card scrolled down); summarised as lines above. */
  offset?: number;
}

const KIND_LABEL: Record<FileChange["kind"], MessageKey> = {
  create: "diff.created",
  modify: "diff.modified",
  delete: "diff.deleted",
};

export function DiffView({ change, width, maxLines, offset = 0 }: DiffViewProps) {
  const { palette } = useTheme();
  const lines = numberedDiff(change.oldText ?? "", change.newText ?? "");
  const shown = lines.slice(offset, maxLines === undefined ? undefined : offset + maxLines);
  const below = lines.length - offset - shown.length;
  const gutter = String(Math.max(0, ...lines.map((line) => line.newLine ?? line.oldLine ?? 0))).length;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{reveal(change.path)}</Text>
        <Text color={palette.muted}>{` (${t(KIND_LABEL[change.kind])})`}</Text>
      </Text>
      {lines.length === 0 ? <Text color={palette.muted}>{t("diff.no_changes")}</Text> : null}
      {offset > 0 ? <Text color={palette.muted}>{t("diff.lines_above", { count: offset })}</Text> : null}
      {shown.map((line, index) => (
        <DiffLine key={index} line={line} gutter={gutter} width={width} palette={palette} />
      ))}
      {below > 0 ? <Text color={palette.muted}>{t("diff.more_lines", { count: below })}</Text> : null}
    </Box>
  );
}

/** Lines the change adds and removes. */
export function diffSize(change: FileChange): { added: number; removed: number } {
  const lines = numberedDiff(change.oldText ?? "", change.newText ?? "");
  return {
    added: lines.filter((line) => line.kind === "add").length,
    removed: lines.filter((line) => line.kind === "remove").length,
  };
}

interface DiffLineProps {
  line: NumberedLine;
  gutter: number;
  width: number;
  palette: Palette;
}

const MARKS = { add: "+", remove: "-", context: " ", hunk: "" } as const;

function DiffLine({ line, gutter, width, palette }: DiffLineProps) {
  if (line.kind === "hunk") {
    return <Text color={palette.hunk}>{clip(reveal(line.text), width, stringWidth)}</Text>;
  }
  const number = String(line.newLine ?? line.oldLine ?? "").padStart(gutter);
  const prefix = `${number} ${MARKS[line.kind]} `;
  const text = clip(reveal(line.text), Math.max(1, width - prefix.length), stringWidth);
  const color = line.kind === "add" ? palette.added : line.kind === "remove" ? palette.removed : undefined;
  return (
    <Text wrap="truncate-end">
      <Text color={palette.muted}>{number}</Text>
      <Text color={color}>{` ${MARKS[line.kind]} ${text}`}</Text>
    </Text>
  );
}
