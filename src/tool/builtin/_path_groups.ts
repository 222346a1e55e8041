/**
 * @module
 * Paths written once instead of on every line: glob's directories, code_index's files. Every byte of a
 * tool result is read again on each later turn, and a repeated path is most of such a line's tokens.
 */

/**
 * `paths` grouped by directory in first-seen order. A directory holding two or more of them becomes a
 * "dir/:" line over their names; a lone path stays whole. Blocks are separated by a blank line, so a
 * "dir/:" line only ever heads the names up to the next blank line.
 */
export function groupByDirectory(paths: readonly string[]): string {
  const byDir = new Map<string, string[]>();
  for (const path of paths) {
    const slash = path.lastIndexOf("/");
    const dir = path.slice(0, slash + 1);
    const names = byDir.get(dir);
    if (names) names.push(path.slice(slash + 1));
    else byDir.set(dir, [path.slice(slash + 1)]);
  }
  const blocks: string[][] = [];
  let loose: string[] | null = null;
  for (const [dir, names] of byDir) {
    if (names.length === 1) {
      if (loose === null) blocks.push(loose = []);
      loose.push(dir + names[0]!);
      continue;
    }
    loose = null;
    blocks.push([`${dir === "" ? "./" : dir}:`, ...names]);
  }
  return blocks.map((block) => block.join("\n")).join("\n\n");
}

/** The full paths back from `groupByDirectory`'s text: the inverse, for tests and measurements. */
export function expandGroups(text: string): string[] {
  return text.split("\n\n").flatMap((block) => {
    const lines = block.split("\n");
    const head = lines[0]!;
    if (!head.endsWith("/:")) return lines;
    const dir = head === "./:" ? "" : head.slice(0, -1);
    return lines.slice(1).map((name) => dir + name);
  });
}

export interface PathRow {
  path: string;
  text: string;
}

/**
 * Rows in their order, each run of two or more rows of one path as a block of the path's line over the
 * rows' texts; a lone row stays `path + separator + text`. Blocks are separated by a blank line.
 */
export function groupRuns(rows: readonly PathRow[], separator: string): string {
  const blocks: string[][] = [];
  let loose: string[] | null = null;
  for (let start = 0; start < rows.length;) {
    const path = rows[start]!.path;
    let end = start + 1;
    while (end < rows.length && rows[end]!.path === path) end++;
    if (end - start === 1) {
      if (loose === null) blocks.push(loose = []);
      loose.push(path + separator + rows[start]!.text);
    } else {
      loose = null;
      blocks.push([path, ...rows.slice(start, end).map((row) => row.text)]);
    }
    start = end;
  }
  return blocks.map((block) => block.join("\n")).join("\n\n");
}
