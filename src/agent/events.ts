/**
 * @module
 * The typed events a turn produces; the Controller forwards them to every frontend.
 * Fields are camelCase and `type` is the discriminant, so a new face is only a translator.
 */
import type { AssistantMessage, Usage } from "../provider/provider.ts";
import type { FileChange, ToolData } from "../tool/tool.ts";
import type { Question, QuestionAnswer } from "../tool/question.ts";
import type { ProposedPlan } from "../tool/plan.ts";

export type TurnSubtype = "success" | "error_during_execution" | "error_max_steps";

export interface ErrorInfo {
  code: string;
  message: string;
  hint?: string;
}

/** How a user answers an approval card; every frontend offers these four. */
export type ApprovalChoice = "allow_once" | "allow_session" | "allow_always" | "deny";

/** Why the policy decided what it did (also what `reasonix permission explain` prints). */
export interface PermissionExplanation {
  decision: "allow" | "ask" | "deny";
  /** `read`/`write` for ordinary calls, `tier1`/`tier2` for risky bash. */
  tier: "read" | "write" | "tier1" | "tier2";
  /** The rule that decided, as written in config or on the command line; null when the fallback did. */
  rule: string | null;
  reason: string;
}

/** A gated call waiting for a human; answered with `Controller.answerApproval(id, choice, reason?)`. */
export interface ApprovalRequest {
  id: string;
  callId: string;
  tool: string;
  /** The call's arguments exactly as the model produced them (JSON text). */
  arguments: string;
  /** What the policy judged: the bash command, the path, the pattern; null when the tool has none. */
  subject: string | null;
  /** The file change the call would make, for a diff preview; null when the tool has no preview. */
  preview: FileChange | null;
  explanation: PermissionExplanation;
  /** The narrowest safe rule "Always allow" would remember; null when only this exact call can be granted. */
  suggestedRule: string | null;
  /** The permission mode the decision was made in. */
  mode: "ask" | "auto" | "yolo" | "plan";
  /** The tool says it may destroy data (an MCP tool's `destructiveHint`). */
  destructive?: boolean;
  /** A subagent asks (its task, model-written: escape it); absent: the main agent. */
  agent?: string;
}

/** A session's figures across every process that ran it (from its log). */
export interface SessionFigures {
  turns: number;
  promptTokens: number;
  hitTokens: number;
  /** null when no priced request was recorded. */
  cost: number | null;
  currency: string | null;
}

/**
 * `seq` is set on events that stand for a record of the session log (and on every replayed event): a
 * face that reconnects with the last seq it saw gets what came after. Streamed deltas carry none.
 */
export type ReasonixEvent =
  & { seq?: number }
  & (
    | {
      type: "session_started";
      sessionId: string;
      resumed: boolean;
      model: string;
      provider: string;
      /** In a snapshot: the figures of the records not replayed (the face adds the rest). */
      figures?: SessionFigures;
      /**
       * The conversation moved within this session (a branch switch, a conversation rewind): the face
       * replaces what it shows with the snapshot that follows.
       */
      redraw?: boolean;
    }
    | { type: "turn_started"; turn: number; text: string }
    /** Text the person sent mid-turn went to the model, on the tail (steer.ts). */
    | { type: "steered"; text: string }
    | { type: "reasoning"; text: string }
    | { type: "text"; text: string }
    | { type: "retrying"; attempt: number; maxAttempts: number; delayMs: number; reason: string }
    | { type: "tool_call"; callId: string; name: string; arguments: string; readOnly: boolean }
    | {
      type: "tool_result";
      callId: string;
      name: string;
      ok: boolean;
      output: string;
      code?: string;
      durationMs: number;
      readOnly: boolean;
      data?: ToolData;
    }
    /**
     * A running call's progress (an MCP server's `notifications/progress`): a count, of `total` when
     * known, and/or a line from the tool. Shown while the call runs; never recorded in the session log.
     */
    | {
      type: "tool_progress";
      callId: string;
      name: string;
      progress?: number;
      total?: number;
      message?: string;
    }
    | { type: "message"; message: AssistantMessage }
    | {
      type: "usage";
      request: number;
      model: string;
      usage: Usage;
      hitRatio: number;
      cost: number | null;
      currency: string | null;
    }
    | {
      type: "compaction";
      beforeTokens: number;
      afterTokens: number;
      /** forced: past the force ratio with no usable summary (the originals are archived). */
      reason: "context_limit" | "manual" | "forced";
    }
    | { type: "turn_done"; subtype: TurnSubtype; result: string; error?: ErrorInfo }
    | { type: "approval_requested"; request: ApprovalRequest }
    /**
     * `cancelled`: nobody answered before the turn was interrupted or the session closed (choice is deny).
     * `reason`: what the user typed when denying; the model reads it in the refusal.
     * `tool`, `subject`: set when replayed from the log (a face attaching later sees no request before it).
     */
    | {
      type: "approval_resolved";
      id: string;
      choice: ApprovalChoice;
      cancelled?: boolean;
      reason?: string;
      tool?: string;
      subject?: string | null;
    }
    /** The `ask` tool waits for the user; answered with `Controller.answerQuestion(id, answers)`. */
    | { type: "question_asked"; id: string; questions: Question[] }
    /**
     * `answers`: one per question, when answered. `questions`: set when replayed from the log (a face
     * attaching later sees no `question_asked` before it).
     */
    | {
      type: "question_resolved";
      id: string;
      outcome: "answered" | "declined" | "cancelled";
      answers?: QuestionAnswer[];
      questions?: Question[];
    }
    /** A plan waits for review (plan mode); answered with `Controller.answerPlan(revision, decision)`. */
    | { type: "plan_proposed"; plan: ProposedPlan }
    /** How a plan revision ended; `mode` is the permission mode an approval restored. */
    | {
      type: "plan_resolved";
      plan: ProposedPlan;
      outcome: "approved" | "revise" | "rejected" | "unanswered" | "superseded" | "cancelled";
      feedback?: string;
      mode?: string;
    }
    | { type: "warning"; message: string }
    /** A line for the person, such as the summary of a resumed session. */
    | { type: "notice"; message: string }
    /** What a slash command answered (`submit`), to every face; `diff` is a unified diff to colour. */
    | { type: "command_output"; command: string; text: string; format: "text" | "diff" }
    /** Background jobs still running; sent whenever one starts or ends. */
    | { type: "jobs"; running: number }
    /** Goal mode: a goal started, ran a turn, stopped, resumed or ended (src/control/goal). */
    | { type: "goal_updated"; goal: GoalSnapshot }
    /** A subagent (`task`, `fleet`…) started, called a tool, or ended; its own session is `sessionId`. */
    | SubagentEvent
  );

/** Goal mode's state as every face shows it (`/goal status`) and the session's goal sidecar stores it. */
export interface GoalSnapshot {
  id: string;
  objective: string;
  /** `update_goal` must name this revision; it moves on with each change. */
  revision: number;
  status: "active" | "paused" | "blocked" | "complete" | "stopped";
  category: "write" | "simple" | "research";
  /** Turns run and the turns allowed (the category's budget, once more per extension). */
  turns: number;
  budget: number;
  /** Tokens the goal's requests used (prompt + completion): observed, never limited. */
  tokens: number;
  /** Turns in a row without host-verifiable progress, and the limit that stops the goal. */
  noProgress: number;
  noProgressLimit: number;
  extensions: number;
  /** Why it is not active: budget, no_progress, blocked, needs_user, paused, interrupted, error, stopped. */
  stopCause?: string;
  /** The cause in words (the blocked reason, the error). */
  detail?: string;
}

export interface SubagentEvent {
  type: "subagent";
  /** `spent`: what the child spent, recorded in its parent's log; sent just before `done`, and on replay. */
  phase: "started" | "tool" | "spent" | "done";
  /** The child's session id: `/agents cancel <id>` and `session show <id>` take it. */
  sessionId: string;
  /** The session that started it (a child's parent may itself be a child). */
  parentId: string;
  depth: number;
  description: string;
  writer: boolean;
  /** phase "tool": the tool the child called. */
  tool?: string;
  /** phase "done". */
  ok?: boolean;
  /** phase "done": the start of its answer (or why it failed). */
  preview?: string;
  /**
   * phase "spent": what the child spent (its requests and, recursively, its children's). A face adds it
   * to the session figures when `depth` is 1, a direct child of the session it shows (a deeper child is
   * inside its parent's figure). Replayed from the log with depth 1 and no description.
   */
  spent?: { requests: number; usage: Usage; cost: number | null; currency: string | null };
}

export type EventListener = (event: ReasonixEvent) => void;

export type Op =
  | { type: "user_turn"; text: string }
  | { type: "interrupt" }
  /** Answers an `approval_requested` event (`Controller.answerApproval`). */
  | { type: "answer_approval"; id: string; choice: ApprovalChoice; reason?: string };
