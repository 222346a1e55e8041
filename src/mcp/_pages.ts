/**
 * @module
 * Paged MCP lists (`prompts/list`, `resources/list`, …) read to the end, within bounds: a server that
 * keeps handing out cursors, or huge lists, cannot make the client loop or grow without end.
 */

export const MAX_PAGES = 20;
export const MAX_LIST_ITEMS = 2000;

export interface Page<T> {
  items: T[];
  next?: string | undefined;
}

/** Every item of every page, stopping after MAX_PAGES pages or MAX_LIST_ITEMS items. */
export async function pagesOf<T>(fetch: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES && items.length < MAX_LIST_ITEMS; pages++) {
    const got = await fetch(cursor);
    items.push(...got.items);
    if (!got.next || got.next === cursor) break;
    cursor = got.next;
  }
  return items.slice(0, MAX_LIST_ITEMS);
}
