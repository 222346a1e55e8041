/**
 * @module
 * Where a headless run (`run`, `review`) writes and how it stops: stdout and stderr, colour and progress
 * only on a terminal, and the shared stop-signal handling.
 */
import { writeAll } from "../../lib/write_all.ts";
import { onStopSignals } from "../../sandbox/stop_signals.ts";

export function terminalIo() {
  const encoder = new TextEncoder();
  return {
    write: (text: string) => writeAll(Deno.stdout, encoder.encode(text)),
    writeError: (text: string) => writeAll(Deno.stderr, encoder.encode(text)),
    color: Deno.stderr.isTerminal() && !Deno.noColor,
    progress: Deno.stderr.isTerminal(),
    onInterrupt: onStopSignals,
  };
}
