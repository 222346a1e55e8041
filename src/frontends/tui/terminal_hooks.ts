/**
 * @module
 * The face's side of `/clear` and `/copy`: wiping the screen (and remounting <Static>, which would
 * otherwise skip as many new entries as it printed before) and writing to the clipboard.
 */
import { useStdout } from "ink";
import { useState } from "react";
import type { CommandContext } from "../../control/mod.ts";
import type { LocalAction } from "./state.ts";
import type { Env } from "./display.ts";
import { osc52 } from "./clipboard.ts";
import { copyWithTool } from "../../sandbox/host_clipboard.ts";

const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";

export interface TerminalHooks {
  /** The key of <Static>: it changes on each clear. */
  epoch: number;
  hooks: Required<Pick<CommandContext, "clearScreen" | "copyToClipboard">>;
}

export function useTerminalHooks(
  dispatch: (action: LocalAction) => void,
  env: Env,
): TerminalHooks {
  const { write } = useStdout();
  const [epoch, setEpoch] = useState(0);
  return {
    epoch,
    hooks: {
      clearScreen: () => {
        write(CLEAR_SCREEN);
        dispatch({ type: "clear_transcript" });
        setEpoch((value) => value + 1);
      },
      copyToClipboard: async (text) => {
        write(osc52(text));
        return ["OSC 52", ...await copyWithTool(text, env)];
      },
    },
  };
}
