/**
 * @module
 * The first frame: the empty input box and a "starting…" status line, painted with Ink and React alone
 * while the App's modules load and the Controller boots. It reads no keys: the terminal is put in raw
 * mode (no echo), so what is typed meanwhile waits in the terminal and reaches the App's input box, Enter
 * included, once it mounts in its place.
 */
import { render } from "ink";
import { Box, Text, useWindowSize } from "ink";
import { createElement } from "react";
import { t } from "../../lib/i18n/mod.ts";

const PROMPT = "› ";

function BootFrame() {
  const { columns } = useWindowSize();
  return (
    <Box flexDirection="column" width={Math.max(20, columns - 1) + 1}>
      <Box borderStyle="single" borderDimColor paddingX={1}>
        <Text dimColor>{PROMPT}{t("app.placeholder")}</Text>
      </Box>
      <Text dimColor>{t("app.starting")}</Text>
    </Box>
  );
}

export interface BootFrameHandle {
  /** Erases the frame and lets go of the terminal, keeping raw mode: the App renders next. */
  clear(): void;
  /** Takes the frame down when the App will not replace it (a failed boot). */
  remove(): void;
}

/** Paints the frame on the terminal Ink will draw the App on; `clear` before the App renders. */
export function paintBootFrame(): BootFrameHandle {
  const instance = render(createElement(BootFrame), { exitOnCtrlC: false });
  // After the frame is out: raw mode here only stops the echo of what is typed meanwhile.
  if (Deno.stdin.isTerminal()) Deno.stdin.setRaw(true);
  return {
    clear() {
      // Ink documents clear() then unmount() as leaving the terminal clean; a second render() on the
      // same stdout is unsupported (and erased the frame short when tried).
      instance.clear();
      instance.unmount();
    },
    remove() {
      instance.unmount();
      if (Deno.stdin.isTerminal()) Deno.stdin.setRaw(false);
    },
  };
}
