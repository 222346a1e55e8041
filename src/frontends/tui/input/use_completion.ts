/**
 * @module
 * The completion menu's state for the input box: which items show for the text at the cursor, the
 * selected one, and the keys the menu takes while it is open (Tab, Enter, Up/Down, Esc).
 */
import type { Key } from "ink";
import { useEffect, useLayoutEffect, useMemo, useState } from "react";
import type { CommandRegistry } from "../../../control/mod.ts";
import type { EditState } from "../input_edit.ts";
import { applyItem, type Completion, completionAt, enterCompletes } from "./completion.ts";
import { completionTokenAt } from "./mention.ts";

export interface CompletionOptions {
  commands?: CommandRegistry | undefined;
  /** Workspace paths for `@path` (from the Controller); fetched again for each new mention. */
  files?: (() => Promise<string[]>) | undefined;
  active: boolean;
  /** Kept true while the menu is open, so the app's Esc closes the menu instead of interrupting. */
  openRef?: { current: boolean } | undefined;
}

export interface CompletionMenu {
  completion: Completion | null;
  selected: number;
  /** Handles a key when the menu is open; true when the key was used. */
  handleKey(input: string, key: Key): boolean;
  /** Keeps the menu closed while the text is `value` (a recalled history line). */
  dismiss(value: string): void;
}

export function useCompletion(
  edit: EditState,
  setEdit: (state: EditState) => void,
  options: CompletionOptions,
): CompletionMenu {
  const [files, setFiles] = useState<readonly string[]>([]);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [selection, setSelection] = useState({ key: "", index: 0 });
  const cursor = utf16Index(edit.value, edit.cursor);
  const token = completionTokenAt(edit.value, cursor);
  const mentionStart = token?.kind === "mention" ? token.start : -1;
  const { files: listFiles } = options;
  useEffect(() => {
    if (mentionStart < 0 || !listFiles) return;
    let live = true;
    listFiles().then((list) => live && setFiles(list)).catch(() => {});
    return () => {
      live = false;
    };
  }, [mentionStart, listFiles]);
  // Any edit away from the dismissed text lets the menu open again, even back to the same text.
  useEffect(() => {
    if (dismissed !== null && edit.value !== dismissed) setDismissed(null);
  }, [edit.value, dismissed]);
  const { commands } = options;
  // Memoised: the app re-renders on every streamed token, and ranking thousands of paths is not free.
  const ranked = useMemo(
    () => completionAt(edit.value, cursor, { ...(commands ? { commands } : {}), files }),
    [edit.value, cursor, commands, files],
  );
  const completion = options.active && dismissed !== edit.value ? ranked : null;
  useLayoutEffect(() => {
    if (options.openRef) options.openRef.current = completion !== null;
  });
  const count = completion?.items.length ?? 0;
  const selected = completion && selection.key === completion.key ? Math.min(selection.index, count - 1) : 0;
  const choose = () => {
    const next = applyItem(edit.value, cursor, completion!, selected);
    setEdit({ value: next.text, cursor: Array.from(next.text.slice(0, next.cursor)).length });
  };
  const handleKey = (input: string, key: Key): boolean => {
    if (!completion) return false;
    if (key.escape) setDismissed(edit.value);
    else if (key.upArrow || key.downArrow) {
      const index = (selected + (key.upArrow ? count - 1 : 1)) % count;
      setSelection({ key: completion.key, index });
    } else if (
      (key.tab && !key.shift) ||
      (key.return && isPlainEnter(input, key) && enterCompletes(completion, selected))
    ) {
      choose();
    } else return false;
    return true;
  };
  return { completion, selected, handleKey, dismiss: setDismissed };
}

function isPlainEnter(input: string, key: Key): boolean {
  return !key.shift && !key.meta && !key.ctrl && input.length <= 1;
}

/** The UTF-16 index of code point `cursor` in `value`. */
export function utf16Index(value: string, cursor: number): number {
  return Array.from(value).slice(0, cursor).join("").length;
}
