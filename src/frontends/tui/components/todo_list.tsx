/**
 * @module
 * The todo list as a checklist, with the in-progress item highlighted.
 */
import { Box, Text } from "ink";
import type { TodoItem } from "../../../tool/session_state.ts";
import { t } from "../../../lib/i18n/mod.ts";
import { useTheme } from "./theme_context.ts";
import { sanitize } from "./format.ts";

const BOXES = { pending: "☐", in_progress: "◐", completed: "☑" } as const;

export function TodoListView({ items }: { items: readonly TodoItem[] }) {
  const { palette } = useTheme();
  const done = items.filter((item) => item.status === "completed").length;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{t("todo.title")}</Text>
        <Text color={palette.muted}>{` · ${t("todo.progress", { done, total: items.length })}`}</Text>
      </Text>
      {items.map((item, index) => (
        <Text
          key={index}
          color={item.status === "in_progress"
            ? palette.accent
            : item.status === "completed"
            ? palette.muted
            : undefined}
          bold={item.status === "in_progress"}
          strikethrough={item.status === "completed"}
        >
          {`  ${BOXES[item.status]} ${sanitize(item.content)}`}
        </Text>
      ))}
    </Box>
  );
}
