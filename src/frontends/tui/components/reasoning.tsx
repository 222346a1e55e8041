/**
 * @module
 * Visible reasoning: dimmed; folded it shows the first line and "…".
 */
import { Box, Text } from "ink";
import { t } from "../../../lib/i18n/mod.ts";
import { lastLines } from "./answer.tsx";
import { sanitize } from "./format.ts";

export interface ReasoningProps {
  text: string;
  folded: boolean;
  streaming: boolean;
  maxLines?: number;
  width?: number;
}

export function ReasoningView({ text, folded, streaming, maxLines, width }: ReasoningProps) {
  const trimmed = sanitize(text).trim();
  const lines = trimmed.split("\n");
  const full = maxLines ? lastLines(trimmed, maxLines, Math.max(1, (width ?? Infinity) - 2)) : trimmed;
  const body = folded ? `${lines[0] ?? ""}${lines.length > 1 || streaming ? " …" : ""}` : full;
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
