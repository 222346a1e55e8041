/**
 * @module
 * The question desk: the `ask` tool's questions waiting for a person. A waiting ask is announced as
 * `question_asked` and settles through `answer()` (then `question_resolved`); an interrupt settles it
 * as cancelled. Where nobody can answer (headless, or no face listening) it returns `unanswered` at once.
 */
import type { ReasonixEvent } from "../agent/events.ts";
import type { Asker, AskOutcome, Question, QuestionAnswer } from "../tool/question.ts";

/** A question set still waiting, for a face that attaches while it is open. */
export interface PendingQuestion {
  id: string;
  questions: Question[];
}

/** How a face answers: one answer per question, or "declined" (Esc). */
export type QuestionReply = QuestionAnswer[] | "declined";

interface Waiting {
  pending: PendingQuestion;
  settle: (outcome: AskOutcome) => void;
}

export class QuestionDesk implements Asker {
  #interactive: boolean;
  #waiting = new Map<string, Waiting>();
  #emit: (event: ReasonixEvent) => void = () => {};
  #canAnswer: () => boolean = () => false;
  #next = 0;

  /** `interactive`: false for `reasonix run`, where no one is there even when events are read. */
  constructor(options: { interactive: boolean }) {
    this.#interactive = options.interactive;
  }

  attach(emit: (event: ReasonixEvent) => void, canAnswer: () => boolean): void {
    this.#emit = emit;
    this.#canAnswer = canAnswer;
  }

  pending(): PendingQuestion[] {
    return [...this.#waiting.values()].map((waiting) => waiting.pending);
  }

  ask(questions: readonly Question[], signal: AbortSignal): Promise<AskOutcome> {
    if (!this.#interactive || !this.#canAnswer()) return Promise.resolve({ kind: "unanswered" });
    if (signal.aborted) return Promise.resolve({ kind: "cancelled" });
    const pending: PendingQuestion = {
      id: `question-${++this.#next}`,
      questions: structuredClone([...questions]),
    };
    return new Promise((resolve) => {
      const onAbort = () => this.#settle(pending.id, { kind: "cancelled" });
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.set(pending.id, {
        pending,
        settle: (outcome) => {
          signal.removeEventListener("abort", onAbort);
          resolve(outcome);
        },
      });
      this.#emit({ type: "question_asked", id: pending.id, questions: pending.questions });
    });
  }

  /** Settles a waiting ask; false when none with this id waits or the reply does not fit it. */
  answer(id: string, reply: QuestionReply): boolean {
    const waiting = this.#waiting.get(id);
    if (!waiting) return false;
    if (reply === "declined") {
      this.#settle(id, { kind: "declined" });
      return true;
    }
    if (!fits(waiting.pending.questions, reply)) return false;
    this.#settle(id, { kind: "answered", answers: reply.map(clean) });
    return true;
  }

  cancelAll(): void {
    for (const id of [...this.#waiting.keys()]) this.#settle(id, { kind: "cancelled" });
  }

  #settle(id: string, outcome: AskOutcome): void {
    const waiting = this.#waiting.get(id);
    if (!waiting) return;
    this.#waiting.delete(id);
    waiting.settle(outcome);
    const kind = outcome.kind === "unanswered" ? "cancelled" : outcome.kind;
    const answers = outcome.kind === "answered" ? { answers: outcome.answers } : {};
    this.#emit({ type: "question_resolved", id, outcome: kind, ...answers });
  }
}

/** One answer per question, each label one of its options, one label unless multiSelect. */
function fits(questions: readonly Question[], answers: readonly QuestionAnswer[]): boolean {
  if (answers.length !== questions.length) return false;
  return questions.every((question, i) => {
    const answer = answers[i]!;
    const labels = new Set(question.options.map((option) => option.label));
    if (!answer.labels.every((label) => labels.has(label))) return false;
    const count = answer.labels.length + (answer.other?.trim() ? 1 : 0);
    return count >= 1 && (question.multiSelect === true || count === 1);
  });
}

function clean(answer: QuestionAnswer): QuestionAnswer {
  const other = answer.other?.trim();
  return { labels: [...answer.labels], ...(other ? { other } : {}) };
}
