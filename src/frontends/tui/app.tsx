/**
 * @module
 * The interactive shell: finished entries in <Static>, then running tools, the live block, an
 * approval card or the input box, and the status line. Behaviour stays in the Controller.
 */
import { Box, Static, useApp, useInput, useWindowSize } from "ink";
import { useEffect, useReducer, useRef, useState } from "react";
import type { EventSource, TurnControl } from "../../control/ports.ts";
import type { CommandHost, CommandRegistry } from "../../control/commands/registry.ts";
import { defaultCommands } from "../../control/commands/builtin.ts";
import type { HistoryPort } from "../../control/input_history.ts";
import { initialState, reduce } from "./state.ts";
import type { TranscriptEntry } from "./transcript_types.ts";
import { TranscriptEntryView } from "./components/transcript.tsx";
import { ApprovalCard, approvalKey } from "./approval_card.tsx";
import { InputBox } from "./input_box.tsx";
import { StatusLineView } from "./status_line.tsx";
import { t } from "../../lib/i18n/mod.ts";

export type TuiPort = TurnControl & EventSource & CommandHost;

export interface AppProps {
  controller: TuiPort;
  /** The slash commands; the one registry that also drives completion and /help. */
  commands?: CommandRegistry;
  history?: HistoryPort;
}

export function App({ controller, commands = defaultCommands(), history }: AppProps) {
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
    const print = (output: string) => dispatch({ type: "command_output", text: output });
    void runInput(commands, { host: controller, print, quit: exit }, text, controller)
      .catch((error) => print(String(error instanceof Error ? error.message : error)))
      .finally(() => running.current = false);
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
      <InputBox onSubmit={submit} active={!pending} {...(history ? { history } : {})} />
      <StatusLineView
        status={state.status}
        mode={controller.permissionMode}
        note={armed ? t("app.quit_hint") : null}
      />
    </Box>
  );
}

/** A slash command runs here and never reaches the model; anything else is a turn. */
async function runInput(
  commands: CommandRegistry,
  ctx: Parameters<CommandRegistry["dispatch"]>[0],
  text: string,
  controller: TurnControl,
): Promise<void> {
  if (await commands.dispatch(ctx, text)) return;
  await controller.runTurn(text);
}

/** Entries before the first running tool never change again, so <Static> may print them once. */
export function settledCount(entries: readonly TranscriptEntry[]): number {
  const running = entries.findIndex((entry) => entry.kind === "tool" && entry.status === "running");
  return running < 0 ? entries.length : running;
}
