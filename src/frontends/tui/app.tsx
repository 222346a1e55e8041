/**
 * @module
 * The interactive shell: finished entries in <Static>, then running tools, the live block, an
 * approval card or the input box, and the status line. Behaviour stays in the Controller.
 */
import { Box, Static, useApp, useInput, useWindowSize } from "ink";
import { useEffect, useReducer, useRef, useState } from "react";
import type { ApprovalPort, EventSource, SessionInfo, TurnControl } from "../../control/ports.ts";
import { initialState, reduce } from "./state.ts";
import type { TranscriptEntry } from "./transcript_types.ts";
import { TranscriptEntryView } from "./components/transcript.tsx";
import { ApprovalCard, approvalKey } from "./approval_card.tsx";
import { InputBox } from "./input_box.tsx";
import { StatusLineView } from "./status_line.tsx";
import { t } from "./i18n/mod.ts";

export type TuiPort = TurnControl & EventSource & SessionInfo & ApprovalPort;

export interface AppProps {
  controller: TuiPort;
}

export function App({ controller }: AppProps) {
  const { exit } = useApp();
  const { columns } = useWindowSize();
  const width = Math.max(20, columns - 1);
  const [state, dispatch] = useReducer(reduce, undefined, initialState);
  const [armed, setArmed] = useState(false);
  const running = useRef(false);
  useEffect(() => controller.subscribe(dispatch), [controller]);
  const pending = state.status.pendingApproval;
  const [choice, setChoice] = useState({ id: "", index: 0 });
  const selected = pending && choice.id === pending.id ? choice.index : 0;
  useInput((input, key) => {
    if (!(key.ctrl && input === "c")) {
      if (armed) setArmed(false);
      if (key.escape && state.status.busy) return controller.interrupt();
      const action = pending ? approvalKey(input, key, selected) : null;
      if (action && "choice" in action) void controller.answerApproval(pending!.id, action.choice);
      else if (action) setChoice({ id: pending!.id, index: action.selected });
      return;
    }
    if (armed) return exit();
    setArmed(true);
    if (state.status.busy) controller.interrupt();
  });
  const submit = (text: string) => {
    setArmed(false);
    // The ref, not state.status.busy: a second Enter can land before turn_started re-renders.
    if (running.current) return;
    running.current = true;
    void controller.runTurn(text).finally(() => running.current = false);
  };
  const settled = settledCount(state.entries);
  return (
    <Box flexDirection="column">
      <Static items={state.entries.slice(0, settled)}>
        {(entry) => (
          <Box key={entry.id} paddingBottom={entry.kind === "usage" ? 1 : 0}>
            <TranscriptEntryView entry={entry} width={width} />
          </Box>
        )}
      </Static>
      {state.entries.slice(settled).map((entry) => (
        <TranscriptEntryView key={entry.id} entry={entry} width={width} />
      ))}
      {state.live ? <TranscriptEntryView entry={state.live} width={width} /> : null}
      {pending ? <ApprovalCard request={pending} width={width} selected={selected} /> : null}
      <InputBox onSubmit={submit} active={!pending} />
      <StatusLineView
        status={state.status}
        mode={controller.permissionMode}
        note={armed ? t("app.quit_hint") : null}
      />
    </Box>
  );
}

/** Entries before the first running tool never change again, so <Static> may print them once. */
export function settledCount(entries: readonly TranscriptEntry[]): number {
  const running = entries.findIndex((entry) => entry.kind === "tool" && entry.status === "running");
  return running < 0 ? entries.length : running;
}
