/**
 * @module
 * The wire between the Controller and every frontend: the agent's typed events, re-exported so
 * faces depend on control only.
 */
export type { ErrorInfo, EventListener, Op, ReasonixEvent, TurnSubtype } from "../agent/events.ts";
