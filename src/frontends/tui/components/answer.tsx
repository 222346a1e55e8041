/**
 * @module
 * The model's answer as rendered Markdown. One `StreamingMarkdown` per mounted answer keeps the
 * finished blocks, so each streamed delta re-renders only the unfinished tail.
 */
import { useMemo } from "react";
import { Box, Text } from "ink";
import stringWidth from "string-width";
import { loadedMarkdown } from "../markdown_loader.ts";
import { stripControls } from "../../../lib/terminal_text.ts";
import { useTheme } from "./theme_context.ts";

export interface AnswerProps {
  text: string;
  width: number;
  /** More of the same answer follows in the next entry: keep the blank line between blocks. */
  continued?: boolean;
  maxLines?: number;
}

export function AnswerView({ text, width, continued = false, maxLines }: AnswerProps) {
  const theme = useTheme();
  const markdown = loadedMarkdown();
  const renderer = useMemo(
    () => markdown && new markdown.StreamingMarkdown({ width: Math.max(10, width), theme }),
    [markdown, width, theme],
  );
  // The App holds answers back until the renderer has loaded; plain text only if it failed to load.
  const rendered = renderer ? renderer.render(text) : stripControls(text);
  return (
    <Box paddingBottom={continued ? 1 : 0}>
      <Text>{maxLines ? lastLines(rendered, maxLines, width) : rendered}</Text>
    </Box>
  );
}

/**
 * The last `count` screen rows of `text` at `width` columns; the rows above are printed in full once
 * the block is finished.
 */
export function lastLines(text: string, count: number, width = Infinity): string {
  const lines = text.split("\n");
  let rows = 0;
  let start = lines.length;
  while (start > 0) {
    const height = Math.max(1, Math.ceil(stringWidth(lines[start - 1]!) / width));
    if (rows + height > count) break;
    rows += height;
    start--;
  }
  if (start === lines.length) return lines.at(-1)!.slice(-count * Math.max(1, Math.floor(width)));
  return start === 0 ? text : lines.slice(start).join("\n");
}
