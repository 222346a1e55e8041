/**
 * @module
 * What the app's own keys do beyond the input box: Ctrl+C clears a draft, interrupts, or quits when
 * pressed twice; Ctrl+D quits on an empty input; Shift+Tab cycles the permission mode; `exit` or
 * `quit` typed alone asks whether `/quit` was meant instead of going to the model.
 */
import type { Key } from "ink";
import { useRef, useState } from "react";
import { PERMISSION_MODES } from "../../config/types.ts";
import type { CommandHost, TurnControl } from "../../control/mod.ts";
import type { CommandHooks } from "./command_hooks.ts";
import { t } from "../../lib/i18n/mod.ts";

/** A whole input that is a word people type to leave a shell. */
export const QUIT_WORDS = /^\s*(exit|quit|:q)\s*$/i;

/** Sets the next mode through the Controller; the status line reads it on the redraw. */
export function cycleMode(
  host: Pick<CommandHost, "permissionMode" | "setPermissionMode">,
  redraw: () => void,
) {
  const index = PERMISSION_MODES.indexOf(host.permissionMode);
  host.setPermissionMode(PERMISSION_MODES[(index + 1) % PERMISSION_MODES.length]!);
  redraw();
}

export interface QuitKeys {
  /** Ctrl+C was pressed once: the next one quits. */
  armed: boolean;
  /** The input box keeps it equal to its text. */
  draft: { current: string };
  disarm(): void;
  /** True when the key was Ctrl+C or a quitting Ctrl+D. */
  onKey(input: string, key: Key): boolean;
}

export interface QuitKeyOptions {
  exit(): void;
  /** `busy` also covers a subagent skill's `/name`, which runs outside a turn. */
  controller: Pick<TurnControl, "interrupt"> & { readonly busy?: boolean };
  busy: boolean;
  /** False while a card owns the keyboard. */
  inputActive: boolean;
  setInput(text: string): void;
}

export function useQuitKeys({ exit, controller, busy, inputActive, setInput }: QuitKeyOptions): QuitKeys {
  const [armed, setArmed] = useState(false);
  const draft = useRef("");
  const ctrlC = () => {
    if (inputActive && draft.current !== "") return setInput("");
    if (armed) return exit();
    setArmed(true);
    if (busy || controller.busy) controller.interrupt();
  };
  return {
    armed,
    draft,
    disarm: () => setArmed(false),
    onKey(input, key) {
      if (key.ctrl && input === "c") return ctrlC(), true;
      if (armed) setArmed(false);
      if (!(key.ctrl && input === "d" && inputActive && draft.current === "")) return false;
      exit();
      return true;
    },
  };
}

/** Sends the text, unless it is a quitting word: then a card asks what was meant. */
export function sendUnlessQuit(
  text: string,
  face: { send(text: string): void; exit(): void; hooks: CommandHooks["hooks"] },
): void {
  if (!QUIT_WORDS.test(text)) return face.send(text);
  void confirmQuit(face.hooks, text).then((choice) => {
    if (choice === "quit") face.exit();
    else if (choice === "send") face.send(text);
    else face.hooks.setInput(text);
  });
}

export type QuitChoice = "quit" | "send" | "cancel";

export async function confirmQuit(hooks: CommandHooks["hooks"], text: string): Promise<QuitChoice> {
  const picked = await hooks.choose({
    title: t("app.quit_confirm_title"),
    rows: [{ label: t("app.quit_confirm_quit") }, {
      label: t("app.quit_confirm_send", { text: text.trim() }),
    }],
  });
  return picked === 0 ? "quit" : picked === 1 ? "send" : "cancel";
}
