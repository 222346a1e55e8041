/**
 * @module
 * The Markdown renderer (marked-terminal and highlight.js with every language: about a third of a
 * second and 35 MB when evaluated) loads after the first paint, not before it. `afterMarkdown` holds
 * the events that could show an answer until it has loaded, in order, so an answer is never printed
 * without it; everything before (the input box, typed keys) does not wait.
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
 * `deliver`, once the renderer has loaded; what comes before is queued and delivered in order. The
 * load starts on the next turn of the event loop, after the frame being drawn.
 */
export function afterMarkdown<T>(deliver: (item: T) => void): (item: T) => void {
  let queue: T[] | undefined;
  return (item) => {
    if (loaded !== undefined && queue === undefined) return deliver(item);
    if (queue !== undefined) return void queue.push(item);
    queue = [item];
    setTimeout(() =>
      loadMarkdown().then(() => {
        const items = queue ?? [];
        queue = undefined;
        for (const next of items) deliver(next);
      }), 0);
  };
}
