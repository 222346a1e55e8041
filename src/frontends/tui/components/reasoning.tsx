/**
 * @module
 * Visible reasoning, dimmed. Folded it is one line that says how long it is and which key unfolds it
 * ("✻ Thinking… (12 lines · ctrl+o to expand)"); unfolded it shows the text under a "✻ Thinking" head.
 */
import { Box, Text } from "ink";
import { t } from "../../../lib/i18n/mod.ts";
import { lastLines } from "./answer.tsx";
import { sanitize } from "./format.ts";

export interface ReasoningProps {
  text: string;
  folded: boolean;
  maxLines?: number;
  width?: number;
}

export function ReasoningView({ text, folded, maxLines, width }: ReasoningProps) {
  const trimmed = sanitize(text).trim();
  if (folded) {
    const lines = trimmed === "" ? 0 : trimmed.split("\n").length;
    return (
      <Text dimColor italic wrap="truncate-end">
        {`✻ ${t("reasoning.title")}…${lines ? ` (${t("reasoning.folded", { lines })})` : ""}`}
      </Text>
    );
  }
  const full = maxLines ? lastLines(trimmed, maxLines, Math.max(1, (width ?? Infinity) - 2)) : trimmed;
  return (
    <Box flexDirection="column">
      <Text dimColor italic>{`✻ ${t("reasoning.title")}`}</Text>
      <Box paddingLeft={2}>
        <Text dimColor>{full}</Text>
      </Box>
    </Box>
  );
}
