/**
 * @module
 * The transcript: finished entries in <Static> (printed once), then the unsettled ones and the live
 * block, cut to what fits above the input box.
 */
import { Box, Static } from "ink";
import { TranscriptEntryView } from "./components/transcript.tsx";
import { settledCount } from "./fold.ts";
import type { TranscriptEntry } from "./transcript_types.ts";

export interface TranscriptPaneProps {
  entries: readonly TranscriptEntry[];
  live: TranscriptEntry | null;
  /** Changes when the screen was wiped, so <Static> prints everything again. */
  epoch: number;
  width: number;
  rows: number;
}

export function TranscriptPane({ entries, live, epoch, width, rows }: TranscriptPaneProps) {
  const settled = settledCount(entries);
  return (
    <>
      <Static key={epoch} items={entries.slice(0, settled)}>
        {(entry) => (
          <Box key={entry.id} paddingBottom={entry.kind === "usage" ? 1 : 0}>
            <TranscriptEntryView entry={entry} width={width} />
          </Box>
        )}
      </Static>
      {entries.slice(settled).map((entry) => (
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
