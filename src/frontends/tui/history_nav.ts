/**
 * @module
 * Up/Down through earlier inputs, shell style: the first Up keeps what was being typed as a draft,
 * Down past the newest line gives the draft back.
 */

export interface HistoryNav {
  /** Index into the entries being shown; null while editing the draft. */
  index: number | null;
  draft: string;
}

export const NO_RECALL: HistoryNav = { index: null, draft: "" };

export interface Recall {
  nav: HistoryNav;
  value: string;
}

/** One step back (older); null when there is nothing older. */
export function recallOlder(entries: readonly string[], nav: HistoryNav, current: string): Recall | null {
  if (entries.length === 0 || nav.index === 0) return null;
  const index = nav.index === null ? entries.length - 1 : nav.index - 1;
  const draft = nav.index === null ? current : nav.draft;
  return { nav: { index, draft }, value: entries[index]! };
}

/** One step forward (newer); past the newest line, the draft; null when not recalling. */
export function recallNewer(entries: readonly string[], nav: HistoryNav): Recall | null {
  if (nav.index === null) return null;
  if (nav.index >= entries.length - 1) return { nav: NO_RECALL, value: nav.draft };
  const index = nav.index + 1;
  return { nav: { index, draft: nav.draft }, value: entries[index]! };
}
