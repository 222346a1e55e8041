/**
 * @module
 * What verified delivery says: the tool error a writer gets before the acceptance list exists, the host
 * note that refuses a final answer (what is missing and how to supply it), and the warnings every face
 * shows and the session log keeps.
 */
import { escapeInvisible } from "../../permission/characters.ts";
import { claimsDone } from "./task_kind.ts";
import type { WatchState } from "./watch.ts";
import { CHECK_EXAMPLES } from "./verifier.ts";

export const NO_LIST_CODE = "delivery.no_acceptance_list";
export const UNVERIFIED_CODE = "delivery.unverified";

const COMPLETE_STEP_CALL = `use_capability (action "call", capability_id "tool:complete_step")`;

const EXAMPLES = CHECK_EXAMPLES.map((command) => `\`${command}\``).join(", ");

const RUN_A_CHECK = `Run a check with bash: the project's tests, build, type check or linter (for example ` +
  `${EXAMPLES}); it must exit 0. Then sign the step off with ${COMPLETE_STEP_CALL}, evidence ` +
  `"verification" and that command, and answer again.`;

export function noListMessage(tool: string): string {
  return `Not run: verified delivery is on and this session has no acceptance list, so "${tool}" may not ` +
    `change anything yet. Call todo_write first with the steps that define done (what will change and ` +
    `the command that will verify it), then make this call again`;
}

export function noListWarning(tool: string): string {
  return `Verified delivery refused "${
    escapeInvisible(tool)
  }": nothing may change before a todo_write acceptance list exists`;
}

/** Which gate an answer fails and what the model must do; null when the answer may stand. */
export interface Missing {
  gate: "verification" | "citation" | "change";
  /** The host note sent back to the model. */
  note: string;
  /** One line for the faces and the session log. */
  summary: string;
}

export function missingDelivery(state: WatchState, answer: string): Missing | null {
  if (state.changed && state.verified === null && state.unchecked !== null) {
    const unchecked = state.unchecked;
    return {
      gate: "verification",
      summary: `no verification command exited 0 after the last change; ${shown(unchecked)} checks nothing`,
      note:
        `Verified delivery: your answer is not accepted yet. \`${unchecked}\` exited 0, but it does not ` +
        `verify anything: a command that only prints or inspects (echo, cat, ls, grep, git status) is not a ` +
        `check, nor is one that may not run or cannot fail the line (in \`||\`, \`if\`, a loop or \`&\`, ` +
        `before \`|\` or a later \`;\`). ` +
        RUN_A_CHECK,
    };
  }
  if (state.changed && state.verified === null) {
    return {
      gate: "verification",
      summary: "no verification command exited 0 after the last change",
      note: `Verified delivery: your answer is not accepted yet. You changed the workspace, but no ` +
        `verification command has passed since the last change. ${RUN_A_CHECK}`,
    };
  }
  if (state.changed && !state.cited && state.verified !== null) {
    return {
      gate: "citation",
      // Faces print the summary: the model's command is quoted, its hidden characters shown.
      summary: `no complete_step cited the passing verification command ${shown(state.verified)}`,
      note: `Verified delivery: your answer is not accepted yet. \`${state.verified}\` passed after your ` +
        `last change; sign the step off with ${COMPLETE_STEP_CALL}, arguments {"summary": …, "evidence": ` +
        `"verification", "command": ${JSON.stringify(state.verified)}} (mark the step in_progress with ` +
        `todo_write first if none is), then answer again.`,
    };
  }
  if (!state.changed && state.asksForChange && claimsDone(answer)) {
    return {
      gate: "change",
      summary: "the task asks for a change, the answer says it is done, and no change was observed",
      note: `Verified delivery: your answer is not accepted. The task asks for a change, and your answer ` +
        `says it is done, but the host observed no successful change in this turn. Make the change with ` +
        `the tools (then verify it), or answer plainly that nothing was changed and why.`,
    };
  }
  return null;
}

export function refusalWarning(missing: Missing, refusal: number, limit: number): string {
  return `Verified delivery refused the final answer (${refusal}/${limit}): ${missing.summary}`;
}

export function unverifiedMessage(missing: Missing): string {
  return `Delivery was not verified: ${missing.summary}`;
}

function shown(command: string): string {
  return escapeInvisible(JSON.stringify(command));
}
