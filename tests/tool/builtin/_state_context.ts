/** A ToolContext for the planning tools, which touch no files: fresh session state, no workspace on disk. */
import { DirectSandbox } from "../../../src/sandbox/none.ts";
import { newSessionToolState, type SessionToolState } from "../../../src/tool/session_state.ts";
import type { ToolContext } from "../../../src/tool/tool.ts";

/** `null` builds a context with no session state at all. */
export function stateContext(state: SessionToolState | null = newSessionToolState()): ToolContext {
  return {
    signal: new AbortController().signal,
    workspace: { root: "/nonexistent-workspace", extraWritable: [], forbidRead: [] },
    sandbox: new DirectSandbox(),
    limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 32000 },
    ...(state === null ? {} : { state }),
  };
}
