/**
 * @module
 * What the app hands commands beyond printing: a pick list (`choose`) and the input box's text
 * (`setInput`, filled by the box through `setter`), the width command output is laid out for, and that
 * the person sits at this machine (`localBrowser`).
 */
import { useRef } from "react";
import { type ChoiceSlot, useChoiceCard } from "./choice_card.tsx";

export interface CommandHooks {
  chooser: ChoiceSlot;
  setter: { current: ((text: string) => void) | null };
  hooks: { choose: ChoiceSlot["choose"]; setInput(text: string): void; width: number; localBrowser: boolean };
}

export function useCommandHooks(width: number, rows: number): CommandHooks {
  const chooser = useChoiceCard(width, rows);
  const setter = useRef<((text: string) => void) | null>(null);
  const setInput = (text: string) => setter.current?.(text);
  // Command output shows beside a notice's icon: two columns narrower than the transcript.
  // The person sits at this terminal: `/mcp login` may open their browser and wait on a loopback port.
  return {
    chooser,
    setter,
    hooks: { choose: chooser.choose, setInput, width: width - 2, localBrowser: true },
  };
}
