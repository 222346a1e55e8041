/**
 * @module
 * A unified diff as git prints it (`/diff`), coloured like the edit diffs: file headers bold, hunks,
 * added and removed lines in the theme's diff colours.
 */
import { Box, Text } from "ink";
import stringWidth from "string-width";
import { t } from "../../../lib/i18n/mod.ts";
import type { Palette } from "../theme.ts";
import { useTheme } from "./theme_context.ts";
import { clip, reveal } from "./format.ts";

/** Lines shown before the rest is summarised; the whole patch is in `git diff` anyway. */
const MAX_LINES = 400;

export function PatchView({ text, width }: { text: string; width: number }) {
  const { palette } = useTheme();
  const lines = text.split("\n");
  const shown = lines.slice(0, MAX_LINES);
  return (
    <Box flexDirection="column">
      {shown.map((line, index) => <PatchLine key={index} line={line} width={width} palette={palette} />)}
      {shown.length < lines.length
        ? <Text color={palette.muted}>{t("diff.more_lines", { count: lines.length - shown.length })}</Text>
        : null}
    </Box>
  );
}

function PatchLine({ line, width, palette }: { line: string; width: number; palette: Palette }) {
  const text = clip(reveal(line), Math.max(1, width), stringWidth);
  if (/^(diff --git|\+\+\+ |--- )/.test(line)) return <Text bold>{text}</Text>;
  if (/^(index |new file|deleted file|similarity|rename |old mode|new mode)/.test(line)) {
    return <Text color={palette.muted}>{text}</Text>;
  }
  if (line.startsWith("@@")) return <Text color={palette.hunk}>{text}</Text>;
  const color = line.startsWith("+") ? palette.added : line.startsWith("-") ? palette.removed : undefined;
  return <Text color={color} wrap="truncate-end">{text || " "}</Text>;
}
