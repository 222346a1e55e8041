/**
 * @module
 * A notice from the app or the Controller (info, warning, error).
 */
import { Box, Text } from "ink";
import type { NoticeLevel } from "../transcript_types.ts";
import { t } from "../../../lib/i18n/mod.ts";
import type { Palette } from "../theme.ts";
import { useTheme } from "./theme_context.ts";
import { sanitize } from "./format.ts";

const ICONS: Record<NoticeLevel, string> = { info: "ℹ", warning: "⚠", error: "✗" };

function levelColor(level: NoticeLevel, palette: Palette): string | undefined {
  if (level === "info") return palette.accent;
  return level === "warning" ? palette.warning : palette.error;
}

export function NoticeView({ level, text }: { level: NoticeLevel; text: string }) {
  const { palette } = useTheme();
  const color = levelColor(level, palette);
  // The text hangs beside the icon, so a multi-line answer (a /status table) keeps its columns.
  return (
    <Box>
      <Text color={color}>{`${ICONS[level]} `}</Text>
      <Box flexShrink={1}>
        <Text color={level === "info" ? palette.muted : color}>
          {level === "info" ? null : <Text bold>{`${t(`notice.${level}`)}: `}</Text>}
          {sanitize(text)}
        </Text>
      </Box>
    </Box>
  );
}
