/**
 * @module
 * The Markdown renderer (marked-terminal and highlight.js with every language: about a third of a
 * second and 35 MB when evaluated) loads after the first paint, not before it. `afterMarkdown` holds
 * the first event that could show an answer, and what follows it, until it has loaded, so an answer is
 * never printed without it; the input box, typed keys and the status line do not wait.
 */
type MarkdownModule = typeof import("./markdown.ts");

let loaded: MarkdownModule | undefined;
let loading: Promise<MarkdownModule | undefined> | undefined;

/** Loads the renderer once; undefined when it could not load (answers then show as plain text). */
export function loadMarkdown(): Promise<MarkdownModule | undefined> {
  loading ??= import("./markdown.ts").then((module) => loaded = module, () => undefined);
  return loading;
}

/** The renderer when it has loaded. */
export function loadedMarkdown(): MarkdownModule | undefined {
  return loaded;
}

/**
 * Passes items to `deliver` at once until one that `needs` the renderer comes before it has loaded; that
 * one and all after it wait for the load, then go in order. The load itself starts on the next turn of the
 * event loop, after the frame being drawn.
 */
export function afterMarkdown<T>(deliver: (item: T) => void, needs: (item: T) => boolean): (item: T) => void {
  let queue: T[] | undefined;
  setTimeout(() => void loadMarkdown(), 0);
  return (item) => {
    if (queue !== undefined) return void queue.push(item);
    if (loaded !== undefined || !needs(item)) return deliver(item);
    queue = [item];
    loadMarkdown().then(() => {
      const items = queue ?? [];
      queue = undefined;
      for (const next of items) deliver(next);
    });
  };
}
