/**
 * @module
 * The redrawn part of the screen, kept shorter than the terminal. Ink redraws it in place by moving
 * the cursor up over its last frame; a frame as tall as the screen or taller pushes rows into the
 * scrollback that the next redraw cannot reach, and they stay there as copies. So the frame is cut
 * to `rows - 1`, from the top: the input box and the status line at its bottom always show.
 */
import { Box } from "ink";
import type { ReactNode } from "react";

export function LiveFrame({ rows, children }: { rows: number; children: ReactNode }) {
  return (
    <Box flexDirection="column" maxHeight={Math.max(1, rows - 1)} overflow="hidden" justifyContent="flex-end">
      <Box flexDirection="column" flexShrink={0}>{children}</Box>
    </Box>
  );
}
