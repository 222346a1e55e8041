/**
 * @module
 * The face's side of `/clear` and `/copy`: wiping the screen (and remounting <Static>, which would
 * otherwise skip as many new entries as it printed before) and writing to the clipboard. A resize
 * wipes and reprints the same way: the terminal has re-wrapped the old frame, so Ink's redraw in
 * place would miss rows and leave pieces of it on the screen and in the scrollback.
 */
import { useStdout } from "ink";
import { useEffect, useRef, useState } from "react";
import type { CommandContext } from "../../control/mod.ts";
import type { LocalAction } from "./state.ts";
import type { Env } from "./display.ts";
import { osc52 } from "./clipboard.ts";
import { copyWithTool } from "../../sandbox/host_clipboard.ts";

const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";
/** A window dragged to a new size sends many resizes: reprint once it settles. */
const RESIZE_SETTLE_MS = 120;

export interface TerminalHooks {
  /** The key of <Static>: it changes on each clear and after each resize. */
  epoch: number;
  hooks: Required<Pick<CommandContext, "clearScreen" | "copyToClipboard">>;
}

export function useTerminalHooks(
  dispatch: (action: LocalAction) => void,
  env: Env,
  size: { columns: number; rows: number },
): TerminalHooks {
  const { write } = useStdout();
  const [epoch, setEpoch] = useState(0);
  useRedrawOnResize(size, () => {
    write(CLEAR_SCREEN);
    setEpoch((value) => value + 1);
  });
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

function useRedrawOnResize(size: { columns: number; rows: number }, redraw: () => void): void {
  const mounted = useRef(false);
  const latest = useRef(redraw);
  latest.current = redraw;
  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    const timer = setTimeout(() => latest.current(), RESIZE_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [size.columns, size.rows]);
}
