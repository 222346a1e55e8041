/**
 * @module
 * The input box's pastes: a small one is typed in as is, a large one becomes a placeholder whose
 * text is kept here until the prompt is sent.
 */
import { usePaste } from "ink";
import { useRef, useState } from "react";
import { backspace, type EditState, insert } from "../input_edit.ts";
import {
  backspacePlaceholder,
  expandPastes,
  isLargePaste,
  normalizePaste,
  type PastedBlock,
  pasteLabel,
} from "./paste.ts";

export interface Pastes {
  /** Backspace that removes a whole placeholder ending at the cursor. */
  backspace(state: EditState): EditState;
  /** The prompt with every placeholder replaced by its text. */
  expand(value: string): string;
  /** Forgets the pastes once the prompt is sent. */
  reset(): void;
}

export function usePastes(
  active: boolean,
  setEdit: (update: (state: EditState) => EditState) => void,
): Pastes {
  const [blocks, setBlocks] = useState<PastedBlock[]>([]);
  const count = useRef(0);
  usePaste((pasted) => {
    if (!active) return;
    const text = normalizePaste(pasted);
    if (!isLargePaste(text)) return setEdit((state) => insert(state, text));
    const label = pasteLabel(++count.current, text);
    setBlocks((list) => [...list, { label, text }]);
    setEdit((state) => insert(state, label));
  });
  return {
    backspace: (state) => backspacePlaceholder(state, blocks) ?? backspace(state),
    expand: (value) => expandPastes(value, blocks),
    reset() {
      setBlocks([]);
      count.current = 0;
    },
  };
}
