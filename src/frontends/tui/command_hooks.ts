/**
 * @module
 * What the app hands commands beyond printing: a pick list (`choose`) and the input box's text
 * (`setInput`, filled by the box through `setter`).
 */
import { useRef } from "react";
import { type ChoiceSlot, useChoiceCard } from "./choice_card.tsx";

export interface CommandHooks {
  chooser: ChoiceSlot;
  setter: { current: ((text: string) => void) | null };
  hooks: { choose: ChoiceSlot["choose"]; setInput(text: string): void };
}

export function useCommandHooks(width: number, rows: number): CommandHooks {
  const chooser = useChoiceCard(width, rows);
  const setter = useRef<((text: string) => void) | null>(null);
  return { chooser, setter, hooks: { choose: chooser.choose, setInput: (text) => setter.current?.(text) } };
}
