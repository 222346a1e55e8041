/**
 * @module
 * Visible reasoning: dimmed; folded it shows the first line and "…".
 */
import { Box, Text } from "ink";
import { t } from "../../../lib/i18n/mod.ts";

export interface ReasoningProps {
  text: string;
  folded: boolean;
  streaming: boolean;
}

export function ReasoningView({ text, folded, streaming }: ReasoningProps) {
  const trimmed = text.trim();
  const lines = trimmed.split("\n");
  const body = folded ? `${lines[0] ?? ""}${lines.length > 1 || streaming ? " …" : ""}` : trimmed;
  return (
    <Box flexDirection="column">
      <Text dimColor italic>
        {`✻ ${t("reasoning.title")}${
          folded && lines.length > 1 ? ` · ${t("reasoning.folded", { lines: lines.length })}` : ""
        }`}
      </Text>
      <Box paddingLeft={2}>
        <Text dimColor>{body}</Text>
      </Box>
    </Box>
  );
}
