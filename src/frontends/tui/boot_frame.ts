/**
 * @module
 * The first frame: the empty input box and a "starting…" status line, written straight to the terminal
 * before Ink, React and the App's modules load and while the Controller boots. It reads no keys: the
 * terminal goes raw (no echo), so what is typed meanwhile waits in it, Enter included, and reaches the
 * App's input box when the App mounts in its place. Not an Ink render: a second `render()` on the same
 * terminal is unsupported, and a mounted Ink instance would hook the process's exit (signal-exit) even
 * when the boot then fails.
 */
import { detectLanguage, setLanguage, t } from "../../lib/i18n/mod.ts";
import { processEnv } from "../../config/paths.ts";

const PROMPT = "› ";
const CSI = "\x1b[";

export interface BootFrame {
  /** Erases the frame; the App draws next. Raw mode stays on: the App keeps it. */
  clear(): void;
  /** Erases the frame and gives the terminal back as it was (a failed boot). */
  remove(): void;
}

/** Paints the frame on a terminal; on anything else nothing, and the App starts as before. */
export function paintBootFrame(env: Record<string, string>): BootFrame {
  const none = { clear() {}, remove() {} };
  if (!Deno.stdout.isTerminal() || !Deno.stdin.isTerminal()) return none;
  const lines = frameLines(Deno.consoleSize().columns, env.NO_COLOR === undefined || env.NO_COLOR === "");
  const write = (text: string) => {
    try {
      Deno.stdout.writeSync(new TextEncoder().encode(text));
    } catch {
      // A terminal that went away: the App's own start reports it.
    }
  };
  write(lines.join("\r\n") + "\r\n");
  Deno.stdin.setRaw(true);
  let shown = true;
  const erase = () => {
    // Line by line from the cursor's row up, as Ink erases its own frames.
    if (shown) write(`${CSI}2K${CSI}1A`.repeat(lines.length) + `${CSI}2K\r`);
    shown = false;
  };
  return {
    clear: erase,
    remove() {
      erase();
      Deno.stdin.setRaw(false);
    },
  };
}

/**
 * The frame as early as the command line knows the TUI will start, before the TUI's own modules (the
 * Controller's among them) load; `runTui` takes it over.
 */
export function paintEarlyFrame(): BootFrame {
  const env = processEnv();
  setLanguage(detectLanguage(env));
  return paintBootFrame(env);
}

/** The box spans the terminal, as the App's input box does; the placeholder is cut to fit. */
export function frameLines(columns: number, color: boolean): string[] {
  const width = Math.max(20, columns);
  const inner = width - 4;
  const text = fit(PROMPT + t("app.placeholder"), inner);
  const dim = (s: string) => color ? `${CSI}2m${s}${CSI}22m` : s;
  return [
    dim(`┌${"─".repeat(width - 2)}┐`),
    dim(`│ ${text}${" ".repeat(inner - columnsOf(text))} │`),
    dim(`└${"─".repeat(width - 2)}┘`),
    dim(t("app.starting")),
  ];
}

function fit(text: string, room: number): string {
  let out = "";
  for (const char of text) {
    if (columnsOf(out + char) > room) break;
    out += char;
  }
  return out;
}

/** Display columns: CJK and full-width forms take two (the placeholders' only wide characters). */
export function columnsOf(text: string): number {
  let count = 0;
  for (const char of text) {
    count += /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/
        .test(char)
      ? 2
      : 1;
  }
  return count;
}
