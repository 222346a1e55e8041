/**
 * @module
 * The cards a turn may open for the person besides approvals: the `ask` tool's questions and the plan
 * (plan mode). One at a time takes the keys, the question first.
 */
import type { Key } from "ink";
import type { QuestionPort } from "../../control/mod.ts";
import { useQuestionCard } from "./question_card.tsx";
import { usePlanCard } from "./plan_card.tsx";
import type { TuiState } from "./state.ts";

export function useTurnCards(
  port: QuestionPort & Parameters<typeof usePlanCard>[0],
  state: Pick<TuiState, "questions" | "plan">,
  size: { width: number; rows: number },
): { card: React.ReactNode | null; onKey(input: string, key: Key): boolean } {
  const question = useQuestionCard(port, state.questions);
  const plan = usePlanCard(port, state.plan, size);
  return {
    card: question.card ?? plan.card,
    onKey: (input, key) => question.onKey(input, key) || plan.onKey(input, key),
  };
}
