/**
 * @module
 * A notice from the app or the Controller (info, warning, error).
 */
import { Text } from "ink";
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
  return (
    <Text color={color}>
      {`${ICONS[level]} `}
      {level === "info" ? null : <Text bold>{`${t(`notice.${level}`)}: `}</Text>}
      <Text color={level === "info" ? palette.muted : color}>{sanitize(text)}</Text>
    </Text>
  );
}
