/**
 * @module
 * Gitignore-flavoured globs, shared by glob, grep and the .gitignore reader: `*` and `?` stop at `/`,
 * `**` crosses directories, `{a,b}` and `[ab]` work, and a pattern without a slash matches the base
 * name at any depth (as ripgrep's `--glob` does).
 */

export interface CompiledGlob {
  regex: RegExp;
  /** True when the pattern has a slash before its end, so it matches the whole relative path. */
  anchored: boolean;
}

export function compileGlob(pattern: string): CompiledGlob {
  let body = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  const anchored = body.slice(0, -1).includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  if (body.endsWith("/")) body = body.slice(0, -1);
  return { regex: new RegExp(`^${globBody(body)}$`, "s"), anchored };
}

/** `rel` is a "/"-separated path relative to the directory the glob applies to. */
export function globMatches(glob: CompiledGlob, rel: string): boolean {
  if (glob.anchored) return glob.regex.test(rel);
  const slash = rel.lastIndexOf("/");
  return glob.regex.test(slash === -1 ? rel : rel.slice(slash + 1));
}

function globBody(glob: string): string {
  let out = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*") {
      const double = glob[i + 1] === "*";
      const atStart = i === 0 || glob[i - 1] === "/";
      if (double && atStart && glob[i + 2] === "/") {
        out += "(?:.*/)?";
        i += 2;
      } else if (double && atStart && i + 2 === glob.length) {
        out += ".*";
        i += 1;
      } else {
        out += "[^/]*";
        if (double) i += 1;
      }
    } else if (char === "?") {
      out += "[^/]";
    } else if (char === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) {
        out += "\\[";
        continue;
      }
      let set = glob.slice(i + 1, end);
      if (set.startsWith("!") || set.startsWith("^")) set = "^" + set.slice(1);
      out += `[${set.replaceAll("\\", "\\\\").replace(/(?<=.)\^/g, "\\^")}]`;
      i = end;
    } else if (char === "{") {
      braces++;
      out += "(?:";
    } else if (char === "}" && braces > 0) {
      braces--;
      out += ")";
    } else if (char === "," && braces > 0) {
      out += "|";
    } else if (char === "\\" && i + 1 < glob.length) {
      out += escapeRegExp(glob[++i]!);
    } else {
      out += escapeRegExp(char);
    }
  }
  return out + ")".repeat(braces);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
