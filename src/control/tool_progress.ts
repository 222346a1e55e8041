/**
 * @module
 * A running call's progress as one line for the faces: `3/10 · message`, `3 · message`, or the message
 * alone. The text is the tool's (an MCP server's): faces still escape it for their medium.
 */
import type { ReasonixEvent } from "./events.ts";

type ToolProgressEvent = Extract<ReasonixEvent, { type: "tool_progress" }>;

/** A server's message is cut to this many characters: the line sits beside a tool card. */
const MESSAGE_LIMIT = 200;

export function progressLine(event: Pick<ToolProgressEvent, "progress" | "total" | "message">): string {
  const count = typeof event.progress === "number" && Number.isFinite(event.progress)
    ? typeof event.total === "number" && Number.isFinite(event.total)
      ? `${figure(event.progress)}/${figure(event.total)}`
      : figure(event.progress)
    : "";
  const message = oneLine(event.message ?? "");
  return [count, message].filter((part) => part !== "").join(" · ");
}

function figure(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

function oneLine(text: string): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > MESSAGE_LIMIT ? `${chars.slice(0, MESSAGE_LIMIT - 1).join("")}…` : chars.join("");
}
