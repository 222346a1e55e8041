/**
 * @module
 * The wire between the Controller and every frontend: the agent's typed events, re-exported so
 * faces depend on control only.
 */
export type {
  ApprovalChoice,
  ApprovalRequest,
  ErrorInfo,
  EventListener,
  GoalSnapshot,
  Op,
  PermissionExplanation,
  ReasonixEvent,
  TurnSubtype,
} from "../agent/events.ts";
export type { Question, QuestionAnswer, QuestionOption } from "../tool/question.ts";
