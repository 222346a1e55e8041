/**
 * @module
 * The model's answer as rendered Markdown. One `StreamingMarkdown` per mounted answer keeps the
 * finished blocks, so each streamed delta re-renders only the unfinished tail.
 */
import { useMemo } from "react";
import { Text } from "ink";
import { StreamingMarkdown } from "../markdown.ts";
import { useTheme } from "./theme_context.ts";

export interface AnswerProps {
  text: string;
  width: number;
}

export function AnswerView({ text, width }: AnswerProps) {
  const theme = useTheme();
  const renderer = useMemo(() => new StreamingMarkdown({ width: Math.max(10, width), theme }), [
    width,
    theme,
  ]);
  return <Text>{renderer.render(text)}</Text>;
}
