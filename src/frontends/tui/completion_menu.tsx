/**
 * @module
 * The menu under the input: a window of completion items around the selected one, each with its
 * label (a command's usage, a path) and a muted detail (the command's summary).
 */
import { Box, Text } from "ink";
import stringWidth from "string-width";
import type { MenuItem } from "./input/completion.ts";
import { useTheme } from "./components/theme_context.ts";
import { t } from "../../lib/i18n/mod.ts";
import { reveal, sanitize } from "./components/format.ts";

export const MENU_ROWS = 8;

export interface CompletionMenuProps {
  items: readonly MenuItem[];
  selected: number;
  width: number;
}

export function CompletionMenuView({ items, selected, width }: CompletionMenuProps) {
  const { palette } = useTheme();
  const first = Math.max(0, Math.min(selected - MENU_ROWS + 1, items.length - MENU_ROWS));
  const shown = items.slice(first, first + MENU_ROWS)
    .map((item) => ({ ...item, label: reveal(item.label), detail: sanitize(item.detail) }));
  const labelWidth = Math.min(
    Math.max(...shown.map((item) => stringWidth(item.label))),
    Math.floor(width / 2),
  );
  const more = items.length - first - shown.length;
  return (
    <Box flexDirection="column" paddingX={1}>
      {shown.map((item, offset) => {
        const active = first + offset === selected;
        const pad = " ".repeat(Math.max(0, labelWidth - stringWidth(item.label)));
        return (
          <Text key={item.value} wrap="truncate-end">
            <Text color={active ? palette.accent : undefined} inverse={active && !palette.accent}>
              {active ? "› " : "  "}
              {item.label}
            </Text>
            {item.detail ? <Text color={palette.muted}>{`${pad}  ${item.detail}`}</Text> : null}
          </Text>
        );
      })}
      <Text color={palette.muted} wrap="truncate-end">
        {more > 0 ? `${t("input.menu_more", { count: more })} · ` : ""}
        {t("input.menu_hint")}
      </Text>
    </Box>
  );
}
