/**
 * @module
 * The multi-line prompt: Enter sends, Ctrl+J (or Shift/Alt+Enter) starts a new line, arrows move
 * the cursor by display column so wide (CJK) characters behave. `/` and `@path` open a completion
 * menu under the box; a large paste shows as one placeholder and is sent whole.
 */
import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import { type EditState, EMPTY_EDIT, insert, moveHorizontal, moveVertical } from "./input_edit.ts";
import { readlineEdit } from "./input_readline.ts";
import { t } from "../../lib/i18n/mod.ts";
import type { CommandRegistry, HistoryPort } from "../../control/mod.ts";
import { type HistoryNav, NO_RECALL, type Recall, recallNewer, recallOlder } from "./history_nav.ts";
import { useTheme } from "./components/theme_context.ts";
import { reveal } from "./components/format.ts";
import { visibleRows } from "./input/visible_rows.ts";
import { useCompletion } from "./input/use_completion.ts";
import { CompletionMenuView } from "./completion_menu.tsx";
import { usePastes } from "./input/use_pastes.ts";

export interface InputBoxProps {
  onSubmit: (text: string) => void;
  /** False while an approval card owns the keyboard. */
  active: boolean;
  /** Earlier inputs of this workspace for Up/Down; absent in tests that do not need it. */
  history?: HistoryPort | undefined;
  /** The slash commands the `/` menu lists. */
  commands?: CommandRegistry;
  /** Workspace paths for `@path` completion (from the Controller). */
  files?: (() => Promise<string[]>) | undefined;
  /** Kept true while the menu is open, so the app's Esc closes the menu instead of interrupting. */
  menuOpen?: { current: boolean };
  width?: number;
  /** Kept but not drawn (an approval card is open: the screen is the card's). */
  hidden?: boolean;
  /** Rows the text may take before it is windowed around the cursor. */
  maxRows?: number;
  /** Esc twice on an empty input (opens the rewind picker). */
  onEscapeTwice?: () => void;
  /** Filled with a function that replaces the input's text (a rewound turn's prompt). */
  setter?: { current: ((text: string) => void) | null };
  /** Kept equal to the text being typed, so the app's Ctrl+C and Ctrl+D know whether it is empty. */
  draft?: { current: string };
}

const PROMPT = "› ";
const ESCAPE_TWICE_MS = 700;
/** Keys typed while the program started arrive in one chunk, with Enter as "\n" (the terminal was cooked). */
const TYPE_AHEAD_MS = 1500;

type EditUpdate = EditState | ((state: EditState) => EditState);

/** The edit state, with a ref that is current between renders (keys can arrive faster than renders). */
function useEditState(draft?: { current: string }) {
  const [edit, setState] = useState<EditState>(EMPTY_EDIT);
  const latest = useRef<EditState>(EMPTY_EDIT);
  const setEdit = (update: EditUpdate) => {
    latest.current = typeof update === "function" ? update(latest.current) : update;
    if (draft) draft.current = latest.current.value;
    setState(latest.current);
  };
  return { edit, latest, setEdit };
}

/** The first chunk after start-up: a typed-ahead "\n" is Enter, as "\r" is in a later chunk. */
function typeAhead(input: string, mountedAt: number, first: { current: boolean }): string {
  if (!first.current) return input;
  first.current = false;
  return Date.now() - mountedAt < TYPE_AHEAD_MS
    ? input.replaceAll("\r\n", "\r").replaceAll("\n", "\r")
    : input;
}

export function InputBox(
  props: InputBoxProps,
) {
  const { onSubmit, active, history, commands, files, menuOpen, width = 80, onEscapeTwice, setter, draft } =
    props;
  const { edit, latest, setEdit } = useEditState(draft);
  const lastEscape = useRef(0);
  const mountedAt = useRef(Date.now());
  const firstChunk = useRef(true);
  if (setter) setter.current = (text) => setEdit({ value: text, cursor: Array.from(text).length });
  const [nav, setNav] = useState<HistoryNav>(NO_RECALL);
  const pastes = usePastes(active, setEdit);
  const menu = useCompletion(edit, setEdit, { commands, files, active, openRef: menuOpen });
  /** Up/Down move between lines; at the first or last line they walk the history instead. */
  const moveOrRecall = (delta: -1 | 1) => {
    const moved = moveVertical(edit, delta);
    if (moved) return setEdit(moved);
    const entries = history?.entries() ?? [];
    const recall: Recall | null = delta < 0
      ? recallOlder(entries, nav, edit.value)
      : recallNewer(entries, nav);
    if (!recall) return;
    setNav(recall.nav);
    menu.dismiss(recall.value);
    setEdit({ value: recall.value, cursor: Array.from(recall.value).length });
  };
  // Always listening, so the handler (not a remount) decides; a card opening takes effect at once.
  useInput((chunk, key) => {
    if (!active || (key.ctrl && chunk === "c")) return;
    const input = typeAhead(chunk, mountedAt.current, firstChunk);
    if (input === "\r" && chunk !== "\r") return submit(latest.current);
    if (menu.handleKey(input, key)) return;
    if (key.escape) {
      const now = Date.now();
      const twice = edit.value === "" && now - lastEscape.current < ESCAPE_TWICE_MS;
      lastEscape.current = twice ? 0 : now;
      if (twice) onEscapeTwice?.();
      return;
    }
    const readline = readlineEdit(input, key);
    if (readline) return setEdit(readline);
    if (input === "\n" || (key.return && (key.shift || key.meta)) || (key.ctrl && input === "j")) {
      setEdit((state) => insert(state, "\n"));
    } else if (key.return) submit(latest.current);
    else if (input.length > 1 && input.includes("\r")) {
      // Keys typed faster than a render arrive as one chunk: "\r" in it is Enter, not a newline.
      const parts = input.split("\r");
      let state = latest.current;
      for (const part of parts.slice(0, -1)) state = submit(insert(state, part));
      setEdit(insert(state, parts.at(-1)!));
    } else if (key.backspace || key.delete) {
      setEdit(pastes.backspace);
    } else if (key.leftArrow) setEdit((state) => moveHorizontal(state, -1));
    else if (key.rightArrow) setEdit((state) => moveHorizontal(state, 1));
    else if (key.upArrow) moveOrRecall(-1);
    else if (key.downArrow) moveOrRecall(1);
    else if (input && !key.ctrl && !key.meta && !key.escape && !key.tab) {
      setEdit((state) => insert(state, input));
    }
  });
  const submit = (state: EditState): EditState => {
    const text = pastes.expand(state.value).trim();
    if (!text) return state;
    setEdit(EMPTY_EDIT);
    setNav(NO_RECALL);
    pastes.reset();
    void history?.add(text).catch(() => {});
    onSubmit(text);
    return EMPTY_EDIT;
  };
  if (props.hidden) return null;
  return (
    <Box flexDirection="column">
      <EditView edit={edit} width={width} maxRows={props.maxRows ?? Infinity} />
      {menu.completion
        ? <CompletionMenuView items={menu.completion.items} selected={menu.selected} width={width} />
        : null}
    </Box>
  );
}

function EditView({ edit, width, maxRows }: { edit: EditState; width: number; maxRows: number }) {
  const { palette } = useTheme();
  // The box spans the terminal (`width` + 1 columns); its border and padding take 4, the prompt 2.
  const { lines, hidden } = visibleRows(edit, width + 1 - 4 - PROMPT.length, maxRows);
  return (
    <Box flexDirection="column" borderStyle="single" borderColor={palette.muted} paddingX={1}>
      {hidden > 0 ? <Text color={palette.muted}>{t("input.rows_hidden", { count: hidden })}</Text> : null}
      {edit.value === ""
        ? <Text color={palette.muted}>{PROMPT}{t("app.placeholder")}</Text>
        : lines.map((line, index) => (
          <Text key={index}>
            <Text color={palette.user}>{index === 0 && hidden === 0 ? PROMPT : "  "}</Text>
            {reveal(line.before)}
            <Text inverse>{reveal(line.cursor ?? "")}</Text>
            {reveal(line.after)}
          </Text>
        ))}
    </Box>
  );
}
