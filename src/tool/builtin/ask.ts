import { z } from "zod";
import { defineTool, type ToolContext, type ToolData, ToolError, type ToolResult } from "../tool.ts";
import type { AskOutcome, Question, QuestionAnswer } from "../question.ts";

const DESCRIPTION =
  `Ask the user 1-3 multiple-choice questions when a decision is theirs (a preference, an unclear requirement); they may also type an answer. Returns their choices.`;

const option = z.object({
  label: z.string().trim().min(1).describe("1-5 words"),
  description: z.string().optional().describe("What picking it means"),
});

const parameters = z.object({
  questions: z.array(z.object({
    header: z.string().trim().min(1).max(40).describe("A tag of 1-3 words"),
    question: z.string().trim().min(1),
    options: z.array(option).min(2).max(4),
    multiSelect: z.boolean().optional().describe("Allow several choices"),
  })).min(1).max(3),
  decision_id: z.string().optional().describe("Names the decision; an answered one is not asked again"),
  new_evidence: z.string().optional().describe("Why an answered decision_id must be asked again"),
});

type Args = z.infer<typeof parameters>;

export const askTool = defineTool({
  name: "ask",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  async execute(args, ctx): Promise<ToolResult> {
    const decisions = ctx.state ? (ctx.state.decisions ??= {}) : undefined;
    const earlier = args.decision_id ? decisions?.[args.decision_id] : undefined;
    if (earlier !== undefined && !args.new_evidence?.trim()) {
      const output = `Decision "${args.decision_id}" was already answered: ${earlier}`;
      return { output, data: { kind: "answers", outcome: "earlier", answers: {} } };
    }
    const outcome = await ask(args, ctx);
    const output = outcomeText(args.questions, outcome);
    if (outcome.kind === "answered" && args.decision_id && decisions) decisions[args.decision_id] = output;
    return { output, data: answersData(args.questions, outcome) };
  },
});

async function ask(args: Args, ctx: ToolContext): Promise<AskOutcome> {
  if (!ctx.questions) return { kind: "unanswered" };
  const questions: Question[] = args.questions.map((q) => ({
    header: q.header,
    question: q.question,
    options: q.options.map((o) =>
      o.description ? { label: o.label, description: o.description } : { label: o.label }
    ),
    ...(q.multiSelect ? { multiSelect: true } : {}),
  }));
  return await ctx.questions.ask(questions, ctx.signal);
}

/** What the model reads; exported for the tests of each outcome. */
export function outcomeText(questions: readonly { header: string }[], outcome: AskOutcome): string {
  switch (outcome.kind) {
    case "unanswered":
      return "No user answered: nobody can be asked in this session. Proceed on your best assumption and state it in your reply.";
    case "declined":
      return "The user declined to answer. Do not ask again; proceed on your best judgement and state your assumption.";
    case "cancelled":
      throw new ToolError("tool.aborted", "The turn was cancelled while the question waited for an answer");
    case "answered":
      return [
        "The user answered:",
        ...questions.map((q, i) => `- ${q.header}: ${answerText(outcome.answers[i])}`),
      ]
        .join("\n");
  }
}

function answersData(questions: readonly { header: string }[], outcome: AskOutcome): ToolData {
  if (outcome.kind !== "answered") {
    return { kind: "answers", outcome: outcome.kind === "declined" ? "declined" : "unanswered", answers: {} };
  }
  const answers = Object.fromEntries(questions.map((q, i) => [q.header, answerText(outcome.answers[i])]));
  return { kind: "answers", outcome: "answered", answers };
}

function answerText(answer: QuestionAnswer | undefined): string {
  if (!answer) return "(no answer)";
  const parts = answer.labels.map((label) => JSON.stringify(label));
  if (answer.other !== undefined) parts.push(`their own answer ${JSON.stringify(answer.other)}`);
  return parts.length ? parts.join(", ") : "(nothing chosen)";
}
