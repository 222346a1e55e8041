/**
 * @module
 * The `ask` tool's questions as a choice list: the header, the question, numbered options with their
 * descriptions, an "Other…" row for a typed answer. Keys are decided by `questionKey` (the app owns
 * the keyboard, as for approval cards).
 */
import { Box, type Key, Text } from "ink";
import { useState } from "react";
import type { PendingQuestion, Question, QuestionPort } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";
import { useTheme } from "./components/theme_context.ts";
import { sanitize } from "./components/format.ts";
import { type QuestionFlow, questionKey, startFlow } from "./question_flow.ts";

export interface QuestionCardProps {
  questions: readonly Question[];
  flow: QuestionFlow;
}

export function QuestionCard({ questions, flow }: QuestionCardProps) {
  const { palette } = useTheme();
  const question = questions[flow.index];
  if (!question) return null;
  const progress = questions.length > 1
    ? ` ${t("question.progress", { n: flow.index + 1, total: questions.length })}`
    : "";
  const rows = [...question.options.map((option) => option.label), t("question.other")];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={palette.accent} paddingX={1}>
      <Text bold color={palette.accent}>{`? ${sanitize(question.header)}${progress}`}</Text>
      <Text>{sanitize(question.question)}</Text>
      {rows.map((label, row) => {
        const at = row === flow.row;
        const mark = question.multiSelect && row < question.options.length
          ? (flow.picked.includes(row) ? "[x] " : "[ ] ")
          : "";
        const description = question.options[row]?.description;
        return (
          <Text key={row}>
            <Text inverse={at} color={at ? palette.accent : undefined}>
              {`${at ? "›" : " "}${row + 1} ${mark}${sanitize(label)}`}
            </Text>
            {description ? <Text color={palette.muted}>{` — ${sanitize(description)}`}</Text> : null}
          </Text>
        );
      })}
      {flow.typing !== null ? <Text>{`${t("question.your_answer")} ${flow.typing}▏`}</Text> : null}
      <Text color={palette.muted}>{hint(question, flow, rows.length)}</Text>
    </Box>
  );
}

function hint(question: Question, flow: QuestionFlow, rows: number): string {
  if (flow.typing !== null) return t("question.hint_typing");
  return question.multiSelect ? t("question.hint_multi", { n: rows }) : t("question.hint", { n: rows });
}

export interface QuestionSlot {
  /** The card for the first waiting ask, or null. */
  card: ReturnType<typeof QuestionCard> | null;
  /** Feeds a key to the open card; false when no card is open (the key is someone else's). */
  onKey(input: string, key: Key): boolean;
}

/** The app's hook: the first waiting ask as a card, and its keys answered through the port. */
export function useQuestionCard(port: QuestionPort, waiting: readonly PendingQuestion[]): QuestionSlot {
  const [state, setFlow] = useState<QuestionFlow | null>(null);
  const asking = waiting[0];
  if (!asking) return { card: null, onKey: () => false };
  const flow = state?.id === asking.id ? state : startFlow(asking.id);
  return {
    card: <QuestionCard questions={asking.questions} flow={flow} />,
    onKey(input, key) {
      const step = questionKey(flow, asking.questions, input, key);
      if (step && "reply" in step) port.answerQuestion(asking.id, step.reply);
      else if (step) setFlow(step.flow);
      return true;
    },
  };
}
