/**
 * @module
 * The transcript: finished entries in <Static> (printed once, into the scrollback), then the
 * unsettled ones and the live block, which belong to the redrawn frame below.
 */
import { Box, Static } from "ink";
import { TranscriptEntryView } from "./components/transcript.tsx";
import { settledCount } from "./fold.ts";
import type { TranscriptEntry } from "./transcript_types.ts";

export interface SettledTranscriptProps {
  entries: readonly TranscriptEntry[];
  /** Changes when the screen was wiped (`/clear`, a resize), so <Static> prints everything again. */
  epoch: number;
  width: number;
}

export function SettledTranscript({ entries, epoch, width }: SettledTranscriptProps) {
  return (
    <Static key={epoch} items={entries.slice(0, settledCount(entries))}>
      {(entry) => (
        // The width keeps a row of texts (the user's `›` and a long prompt) inside the terminal.
        <Box key={entry.id} width={width} paddingBottom={entry.kind === "usage" ? 1 : 0}>
          <TranscriptEntryView entry={entry} width={width} />
        </Box>
      )}
    </Static>
  );
}

export interface LiveTranscriptProps {
  entries: readonly TranscriptEntry[];
  live: TranscriptEntry | null;
  width: number;
  rows: number;
}

export function LiveTranscript({ entries, live, width, rows }: LiveTranscriptProps) {
  return (
    <>
      {entries.slice(settledCount(entries)).map((entry) => (
        <TranscriptEntryView key={entry.id} entry={entry} width={width} />
      ))}
      {live
        ? <TranscriptEntryView key={live.id} entry={live} width={width} maxLines={liveLines(rows)} />
        : null}
    </>
  );
}

/** Room for the live block: the screen minus the input box, the status line and a margin. */
function liveLines(rows: number): number {
  return Math.max(3, rows - 10);
}
