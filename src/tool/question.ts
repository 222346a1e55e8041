/**
 * @module
 * What the `ask` tool puts to a person and what comes back. The tool only sees an `Asker`; the
 * Controller's question desk decides whether anyone is there to answer.
 */

export interface QuestionOption {
  label: string;
  description?: string;
}

export interface Question {
  /** A short tag for the question (a few words). */
  header: string;
  question: string;
  options: QuestionOption[];
  multiSelect?: boolean;
}

/** One question's answer: the labels picked, and the text typed when "Other" was chosen. */
export interface QuestionAnswer {
  labels: string[];
  other?: string;
}

/** `unanswered`: nobody can answer here (headless); `cancelled`: the turn ended while it waited. */
export type AskOutcome =
  | { kind: "answered"; answers: QuestionAnswer[] }
  | { kind: "declined" }
  | { kind: "cancelled" }
  | { kind: "unanswered" };

export interface Asker {
  ask(questions: readonly Question[], signal: AbortSignal): Promise<AskOutcome>;
}
