/**
 * @module
 * One transcript entry, by kind. The app keeps the entries; this only draws them.
 */
import { Box, Text } from "ink";
import type { TranscriptEntry } from "../transcript_types.ts";
import { useTheme } from "./theme_context.ts";
import { ReasoningView } from "./reasoning.tsx";
import { AnswerView } from "./answer.tsx";
import { ToolCardView } from "./tool_card.tsx";
import { TodoListView } from "./todo_list.tsx";
import { UsageReceiptView } from "./usage_receipt.tsx";
import { NoticeView } from "./notice.tsx";
import { PatchView } from "./patch_view.tsx";
import { sanitize } from "./format.ts";

export interface TranscriptEntryProps {
  entry: TranscriptEntry;
  width: number;
  /** For the live block: show only its last lines, so the redrawn region never outgrows the screen. */
  maxLines?: number;
}

export function TranscriptEntryView({ entry, width, maxLines }: TranscriptEntryProps) {
  switch (entry.kind) {
    case "user":
      return <UserView text={entry.text} />;
    case "reasoning":
      return (
        <ReasoningView
          text={entry.text}
          folded={entry.folded}
          width={width}
          {...(maxLines ? { maxLines } : {})}
        />
      );
    case "answer":
      return (
        <AnswerView
          text={entry.text}
          width={width}
          continued={entry.continued === true}
          {...(maxLines ? { maxLines } : {})}
        />
      );
    case "tool":
      return <ToolCardView entry={entry} width={width} />;
    case "todo":
      return <TodoListView items={entry.items} />;
    case "usage":
      return <UsageReceiptView receipt={entry.receipt} />;
    case "notice":
      return <NoticeView level={entry.level} text={entry.text} />;
    case "patch":
      return <PatchView text={entry.text} width={width} />;
  }
}

const USER_MARK = "› ";

function UserView({ text }: { text: string }) {
  const { palette } = useTheme();
  return (
    <Box>
      <Text color={palette.user} bold>{USER_MARK}</Text>
      <Text>{sanitize(text)}</Text>
    </Box>
  );
}
