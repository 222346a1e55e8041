/**
 * @module
 * The plan card (plan mode): the plan's revision, summary and steps, then Approve / Revise / Reject.
 * Revise opens a line for what should change, which goes to the model. Every answer names the revision
 * the card shows, so the Controller refuses it if a newer revision replaced that plan meanwhile.
 */
import { Box, type Key, Text } from "ink";
import { useState } from "react";
import type { PlanDecision, PlanPort, ProposedPlan } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";
import { useTheme } from "./components/theme_context.ts";
import { sanitize } from "./components/format.ts";
import { reasonKey } from "./approval_keys.ts";

const CHOICES: readonly PlanDecision[] = ["approve", "revise", "reject"];
/** Rows the card needs besides its steps: border, title, summary, choices, hint, feedback line. */
const CARD_CHROME = 8;

export interface PlanFlow {
  revision: number;
  selected: number;
  /** The feedback being typed for a revise; null while the choices are shown. */
  feedback: string | null;
}

export type PlanStep = { flow: PlanFlow } | { decision: PlanDecision; feedback?: string } | null;

/** What a key does on the card; null when it is not the card's. */
export function planKey(flow: PlanFlow, input: string, key: Key): PlanStep {
  if (flow.feedback !== null) {
    const step = reasonKey(flow.feedback, input, key);
    if (step && "send" in step) {
      return flow.feedback.trim() ? { decision: "revise", feedback: flow.feedback } : null;
    }
    if (step && "back" in step) return { flow: { ...flow, feedback: null } };
    return step ? { flow: { ...flow, feedback: step.text } } : null;
  }
  const digit = Number(input);
  const pick = key.return
    ? flow.selected
    : Number.isInteger(digit) && digit >= 1 && digit <= 3
    ? digit - 1
    : -1;
  if (pick >= 0) {
    if (CHOICES[pick] === "revise") return { flow: { ...flow, selected: pick, feedback: "" } };
    return { decision: CHOICES[pick]! };
  }
  const move = key.leftArrow || key.upArrow ? -1 : key.rightArrow || key.downArrow || key.tab ? 1 : 0;
  if (move === 0) return null;
  return { flow: { ...flow, selected: (flow.selected + move + CHOICES.length) % CHOICES.length } };
}

export function PlanCard(props: { plan: ProposedPlan; flow: PlanFlow; width: number; rows: number }) {
  const { palette } = useTheme();
  const { plan, flow } = props;
  const room = Math.max(1, props.rows - CARD_CHROME);
  const shown = plan.steps.length > room ? plan.steps.slice(0, room - 1) : plan.steps;
  const labels = [t("plan.approve"), t("plan.revise"), t("plan.reject")];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={palette.accent} paddingX={1}>
      <Text bold color={palette.accent}>{t("plan.card_title", { revision: plan.revision })}</Text>
      <Text>{sanitize(plan.summary)}</Text>
      {shown.map((step, i) => (
        <Text key={i} wrap="truncate-end">
          {`${i + 1}. ${sanitize(step.content)}`}
          {step.detail ? <Text color={palette.muted}>{` — ${sanitize(step.detail)}`}</Text> : null}
        </Text>
      ))}
      {shown.length < plan.steps.length
        ? <Text color={palette.muted}>{t("plan.more_steps", { n: plan.steps.length - shown.length })}</Text>
        : null}
      <Text>
        {labels.map((label, i) => (
          <Text
            key={i}
            inverse={i === flow.selected}
            color={i === flow.selected ? palette.accent : undefined}
          >
            {` ${i + 1} ${label} `}
          </Text>
        ))}
      </Text>
      {flow.feedback !== null ? <Text>{`${t("plan.feedback_prompt")} ${flow.feedback}▏`}</Text> : null}
      <Text color={palette.muted}>{flow.feedback !== null ? t("plan.feedback_hint") : t("plan.hint")}</Text>
    </Box>
  );
}

export interface PlanSlot {
  card: React.ReactNode | null;
  onKey(input: string, key: Key): boolean;
}

/** The app's hook: the waiting plan as a card, answered through the port with the revision it shows. */
export function usePlanCard(
  port: { readonly plans?: PlanPort | undefined },
  plan: ProposedPlan | null,
  size: { width: number; rows: number },
): PlanSlot {
  const [state, setFlow] = useState<PlanFlow | null>(null);
  if (!plan) return { card: null, onKey: () => false };
  const flow = state?.revision === plan.revision
    ? state
    : { revision: plan.revision, selected: 0, feedback: null };
  return {
    card: <PlanCard plan={plan} flow={flow} {...size} />,
    onKey(input, key) {
      const step = planKey(flow, input, key);
      if (step && "decision" in step) port.plans?.answer(plan.revision, step.decision, step.feedback);
      else if (step) setFlow(step.flow);
      // Esc on the choices goes on to the app (it interrupts the turn); every other key stays here.
      return step !== null || !key.escape;
    },
  };
}
