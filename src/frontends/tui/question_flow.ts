/**
 * @module
 * The keyboard logic of the question card, as a pure function: one question after another; ↑/↓ or a
 * digit picks a row (a digit toggles it in multiSelect, as Space does), Enter confirms, the "Other…" row
 * takes a typed answer, Esc declines the whole ask. The card renders a flow; the app feeds it keys.
 */
import type { Key } from "ink";
import type { Question, QuestionAnswer, QuestionReply } from "../../control/mod.ts";

export interface QuestionFlow {
  /** The ask this flow answers. */
  id: string;
  /** Which question is on screen. */
  index: number;
  /** The highlighted row; `options.length` is the "Other…" row. */
  row: number;
  /** Rows toggled on (multiSelect). */
  picked: number[];
  /** The typed answer while the "Other…" row is being edited; null otherwise. */
  typing: string | null;
  answers: QuestionAnswer[];
}

export type FlowStep = { flow: QuestionFlow } | { reply: QuestionReply } | null;

export function startFlow(id: string): QuestionFlow {
  return { id, index: 0, row: 0, picked: [], typing: null, answers: [] };
}

export function questionKey(
  flow: QuestionFlow,
  questions: readonly Question[],
  input: string,
  key: Key,
): FlowStep {
  const question = questions[flow.index];
  if (!question) return null;
  if (flow.typing !== null) return typingKey(flow, questions, input, key);
  if (key.escape) return { reply: "declined" };
  const rows = question.options.length + 1;
  if (key.upArrow) return { flow: { ...flow, row: (flow.row + rows - 1) % rows } };
  if (key.downArrow || key.tab) return { flow: { ...flow, row: (flow.row + 1) % rows } };
  const digit = /^[1-9]$/.test(input) ? Number(input) - 1 : -1;
  if (digit >= rows) return null;
  const row = digit >= 0 ? digit : flow.row;
  if (row === rows - 1 && (digit >= 0 || key.return || input === " ")) {
    return { flow: { ...flow, row, typing: "" } };
  }
  if (question.multiSelect && (input === " " || digit >= 0)) {
    return { flow: { ...flow, row, picked: toggle(flow.picked, row) } };
  }
  if (digit >= 0) return { flow: { ...flow, row } };
  if (key.return) {
    const picked = question.multiSelect && flow.picked.length > 0 ? flow.picked : [row];
    return next(flow, questions, { labels: labelsOf(question, picked) });
  }
  return null;
}

function typingKey(flow: QuestionFlow, questions: readonly Question[], input: string, key: Key): FlowStep {
  const typed = flow.typing ?? "";
  if (key.escape) return { flow: { ...flow, typing: null } };
  if (key.return) {
    if (!typed.trim()) return null;
    const question = questions[flow.index]!;
    return next(flow, questions, { labels: labelsOf(question, flow.picked), other: typed.trim() });
  }
  if (key.backspace || key.delete) {
    return { flow: { ...flow, typing: Array.from(typed).slice(0, -1).join("") } };
  }
  if (!input || key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow) return null;
  return { flow: { ...flow, typing: typed + input.replace(/[\r\n]/g, " ") } };
}

function next(flow: QuestionFlow, questions: readonly Question[], answer: QuestionAnswer): FlowStep {
  const answers = [...flow.answers, answer];
  if (answers.length >= questions.length) return { reply: answers };
  return { flow: { id: flow.id, index: flow.index + 1, row: 0, picked: [], typing: null, answers } };
}

function toggle(picked: readonly number[], row: number): number[] {
  return picked.includes(row) ? picked.filter((r) => r !== row) : [...picked, row].sort((a, b) => a - b);
}

function labelsOf(question: Question, rows: readonly number[]): string[] {
  return rows.flatMap((row) => question.options[row] ? [question.options[row]!.label] : []);
}
