/**
 * @module
 * The interactive shell: finished entries in <Static>, then running tools, the live block, an
 * approval card or the input box, and the status line. Behaviour stays in the Controller.
 */
import { Box, useApp, useInput, useWindowSize } from "ink";
import { useEffect, useReducer, useRef } from "react";
import type {
  CommandHost,
  CommandRegistry,
  EventSource,
  HistoryPort,
  QuestionPort,
  StatusPort,
  SubmitPort,
  TurnControl,
} from "../../control/mod.ts";
import { type EventBatch, subscribeBatched } from "./event_batch.ts";
import { afterMarkdown } from "./markdown_loader.ts";
import { initialState, reduce } from "./state.ts";
import { LiveTranscript, SettledTranscript } from "./transcript_pane.tsx";
import { useApprovalCard } from "./use_approval_card.tsx";
import { LiveFrame } from "./live_frame.tsx";
import { InputBox } from "./input_box.tsx";
import { useTurnCards } from "./use_cards.tsx";
import { useCommandHooks } from "./command_hooks.ts";
import { StatusLineView } from "./status_line.tsx";
import { t } from "../../lib/i18n/mod.ts";
import { ThemeContext } from "./components/theme_context.ts";
import { type Env, useDisplay, viewFrom } from "./display.ts";
import { settledCount } from "./fold.ts";
import { useTerminalHooks } from "./terminal_hooks.ts";
import { useSubmitQueue } from "./submit_queue.ts";
import { ActivityLine } from "./activity_line.tsx";
import { cycleMode, sendUnlessQuit, useQuitKeys } from "./app_keys.ts";

export { settledCount };

/** Answers come from `text` events alone (state.ts), live or replayed. */
function showsAnswer(batch: EventBatch): boolean {
  return batch.events.some((event) => event.type === "text");
}

export type TuiPort = TurnControl & EventSource & CommandHost & QuestionPort & StatusPort & SubmitPort;

export interface AppProps {
  controller: TuiPort;
  /** The slash commands for completion (default: the controller's, the registry `submit` runs). */
  commands?: CommandRegistry;
  history?: HistoryPort;
  /** Workspace paths for `@path` completion; keep it the same function across renders. */
  files?: () => Promise<string[]>;
  /** For `auto` theme and language (COLORFGBG, NO_COLOR, REASONIX_LANG, LANG). */
  env?: Env;
  /** A command run once at start (`/resume` for `reasonix -r` with no query). */
  startWith?: string;
}

export function App(
  { controller, commands = controller.commands, history, env = {}, files, startWith }: AppProps,
) {
  const { exit } = useApp();
  const { columns, rows } = useWindowSize();
  const width = Math.max(20, columns - 1);
  const [state, dispatch] = useReducer(reduce, controller.uiSettings, (ui) => initialState(viewFrom(ui)));
  const display = useDisplay({ settings: controller.uiSettings, env, view: state.view, dispatch });
  const terminal = useTerminalHooks(dispatch, env, { columns, rows });
  const menuOpen = useRef(false);
  const listen = { snapshot: true, wipe: terminal.hooks.clearScreen };
  useEffect(() => subscribeBatched(controller, afterMarkdown(dispatch, showsAnswer), listen), [controller]);
  const pending = state.status.pendingApproval;
  const unsettled = state.entries.length - settledCount(state.entries);
  const approval = useApprovalCard(controller, pending, {
    width,
    rows,
    unsettled,
    activity: !!state.activity,
  });
  const question = useTurnCards(controller, state, { width, rows });
  const faces = useCommandHooks(width, rows);
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  const inputActive = !pending && !question.card && !faces.chooser.card;
  const quit = useQuitKeys({
    exit,
    controller,
    busy: state.status.busy,
    inputActive,
    setInput: faces.hooks.setInput,
  });
  useInput((input, key) => {
    if (quit.onKey(input, key)) return;
    if (question.onKey(input, key)) return;
    if (faces.chooser.onKey(input, key)) return;
    if (approval.onKey(input, key)) return;
    if (key.tab && key.shift && !pending) return cycleMode(controller, redraw);
    if (key.ctrl && input === "o") return dispatch({ type: "toggle_fold" });
    if (key.escape && state.status.busy && !menuOpen.current) return controller.interrupt();
  });
  const print = (output: string) => dispatch({ type: "command_output", text: output });
  const face = () => ({ quit: exit, display: display.port, ...terminal.hooks, ...faces.hooks });
  const send = useSubmitQueue(controller, face, print);
  const submit = (text: string) => {
    quit.disarm();
    sendUnlessQuit(text, { send, exit, hooks: faces.hooks });
  };
  useEffect(() => void (startWith && submit(startWith)), []);
  const inputProps = { history, commands, files, menuOpen, width, setter: faces.setter, draft: quit.draft };
  // Half the screen for a long prompt, less its border; the frame clamps whatever else is left over.
  const inputRows = Math.max(1, Math.floor(rows / 2) - 2);
  return (
    <ThemeContext.Provider value={display.theme}>
      <Box flexDirection="column">
        <SettledTranscript entries={state.entries} epoch={terminal.epoch} width={width} />
        <LiveFrame rows={rows}>
          <LiveTranscript entries={state.entries} live={state.live} width={width} rows={rows} />
          {approval.card}
          {question.card}
          {faces.chooser.card}
          {state.activity ? <ActivityLine activity={state.activity} /> : null}
          <InputBox
            onSubmit={submit}
            active={inputActive}
            hidden={!!pending}
            maxRows={inputRows}
            onEscapeTwice={() => state.status.busy || submit("/rewind")}
            {...inputProps}
          />
          <StatusLineView
            status={state.status}
            port={controller}
            width={width}
            note={quit.armed ? t("app.quit_hint") : null}
          />
        </LiveFrame>
      </Box>
    </ThemeContext.Provider>
  );
}
