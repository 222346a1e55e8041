/**
 * @module
 * How grep's matching lines read, as ripgrep's `--heading` prints them: each file's path once on its own
 * line, then "line:text" for a match and "line-text" for context, "--" between lines of one file that do
 * not follow each other, and a blank line between files. Repeating the path on every line was most of a
 * result's tokens, and tool results are read again on every later turn.
 */
import type { Hit } from "./_grep_search.ts";

export class HitLines {
  readonly #lines: string[] = [];
  readonly #context: number;
  #path: string | null = null;
  #previous = -1;

  constructor(context: number) {
    this.#context = context;
  }

  /** Adds `hit` of the file shown as `path`, with its (clipped) `text`. */
  add(path: string, hit: Hit, text: string): void {
    if (path !== this.#path) {
      if (this.#lines.length > 0) this.#lines.push("");
      this.#lines.push(path);
      this.#path = path;
    } else if (this.#context > 0 && hit.line !== this.#previous + 1) {
      this.#lines.push("--");
    }
    this.#lines.push(`${hit.line}${hit.match ? ":" : "-"}${text}`);
    this.#previous = hit.line;
  }

  /** A line that is not a match, such as a truncation notice. */
  note(line: string): void {
    this.#lines.push(line);
  }

  text(): string {
    return this.#lines.join("\n");
  }
}
