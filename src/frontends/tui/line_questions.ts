/**
 * @module
 * The `ask` tool in line mode: each question printed with numbered options, answered by the next
 * stdin line — numbers (several, comma-separated, for multiSelect), the Other number then a line of
 * text, or any other text as the user's own answer. An empty line or the end of input declines.
 */
import type { Question, QuestionAnswer, QuestionReply } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";
import { sanitize } from "./components/format.ts";

/** Reads the next stdin line; null at the end of input. */
export type NextLine = () => Promise<string | null>;

export async function answerOnLines(
  questions: readonly Question[],
  next: NextLine,
  write: (text: string) => void,
): Promise<QuestionReply> {
  const answers: QuestionAnswer[] = [];
  for (const question of questions) {
    write(questionText(question));
    const line = (await next())?.trim() ?? "";
    if (!line) return "declined";
    const other = question.options.length + 1;
    const picked = numbers(line, other, question.multiSelect === true);
    if (!picked) {
      answers.push({ labels: [], other: line });
      continue;
    }
    const labels = picked.filter((n) => n !== other).map((n) => question.options[n - 1]!.label);
    if (!picked.includes(other)) {
      answers.push({ labels });
      continue;
    }
    write(`${t("question.your_answer")} `);
    const typed = (await next())?.trim() ?? "";
    if (!typed) return "declined";
    answers.push({ labels, other: typed });
  }
  return answers;
}

function questionText(question: Question): string {
  const rows = [
    ...question.options.map((option) =>
      option.description ? `${option.label} — ${option.description}` : option.label
    ),
    t("question.other"),
  ];
  return [
    `? ${sanitize(question.header)}: ${sanitize(question.question)}`,
    ...rows.map((row, i) => `  ${i + 1}) ${sanitize(row)}`),
    `${t(question.multiSelect ? "question.line_prompt_multi" : "question.line_prompt", { n: rows.length })} `,
  ].join("\n");
}

/** `2` or `1, 3` as option numbers within 1..max; null when the line is not that (it is text). */
function numbers(line: string, max: number, multi: boolean): number[] | null {
  if (!/^\d+(\s*[, ]\s*\d+)*$/.test(line)) return null;
  const picked = [...new Set(line.split(/[\s,]+/).map(Number))];
  if (picked.some((n) => n < 1 || n > max)) return null;
  return multi || picked.length === 1 ? picked.sort((a, b) => a - b) : null;
}
