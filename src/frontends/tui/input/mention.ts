/**
 * @module
 * Finds the completion token under the cursor: an `@path` mention anywhere in the text, or a
 * `/command` name when the input starts with `/`.
 */

export interface CompletionToken {
  kind: "mention" | "command";
  /** The text after the sigil, up to the cursor. */
  query: string;
  /** Index of the sigil in the text. */
  start: number;
}

/** The token ending at `cursor` (a UTF-16 index into `text`), or `undefined`. */
export function completionTokenAt(text: string, cursor: number): CompletionToken | undefined {
  const before = text.slice(0, cursor);
  const command = /^\/(\S*)$/.exec(before);
  if (command) return { kind: "command", query: command[1] ?? "", start: 0 };
  const mention = /(^|\s)@(\S*)$/.exec(before);
  if (!mention) return undefined;
  const query = mention[2] ?? "";
  return { kind: "mention", query, start: before.length - query.length - 1 };
}

/**
 * Replaces the token with the chosen value plus a trailing space (none after a directory, so the
 * path can go on); returns the new text and cursor.
 */
export function applyCompletion(
  text: string,
  cursor: number,
  token: CompletionToken,
  value: string,
): { text: string; cursor: number } {
  const sigil = token.kind === "mention" ? "@" : "/";
  const inserted = `${sigil}${value}${value.endsWith("/") ? "" : " "}`;
  return {
    text: text.slice(0, token.start) + inserted + text.slice(cursor),
    cursor: token.start + inserted.length,
  };
}
