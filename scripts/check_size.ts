/**
 * @module
 * Size limits with a ratchet: files stop at 500 lines and functions at 80 (tests exempt). Overruns
 * recorded in scripts/size_baseline.json are tolerated while they do not grow. Usage:
 * `deno run -A scripts/check_size.ts [root] [--update [--allow-widen]]`.
 */
import { dirname, resolve } from "node:path";
import { findFunctions } from "./_functions.ts";
import { lineOf, lineStartsOf, listSources, scanSource } from "./_scan.ts";

export const FILE_LIMIT = 500;
export const FUNCTION_LIMIT = 80;
export const CHECKED_DIRS = ["src", "scripts"];
export const CHECKED_FILES = ["main.ts", "cli.ts"];
export const BASELINE_PATH = "scripts/size_baseline.json";

export interface Baseline {
  files: Record<string, number>;
  functions: Record<string, number>;
}

export interface Overrun {
  kind: "files" | "functions";
  /** The baseline key: the path, or `path#name` for a function. */
  key: string;
  file: string;
  line: number;
  lines: number;
}

export interface SizeReport {
  files: number;
  overruns: Overrun[];
  /** New overruns and recorded ones that grew. */
  failures: string[];
  tolerated: Overrun[];
  /** Baseline entries whose code is now within limits (or gone). */
  removable: string[];
  /** Recorded overruns that shrank: `--update` lowers their budget. */
  shrunk: string[];
}

export function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

/** Every overrun of one file: the file itself and each function past the limit. */
export function measureFile(file: string, text: string): Overrun[] {
  const overruns: Overrun[] = [];
  const lines = countLines(text);
  if (lines > FILE_LIMIT) overruns.push({ kind: "files", key: file, file, line: 1, lines });
  const starts = lineStartsOf(text);
  for (const span of findFunctions(scanSource(text).code)) {
    const line = lineOf(starts, span.start);
    const length = lineOf(starts, span.end) - line + 1;
    if (length > FUNCTION_LIMIT) {
      overruns.push({ kind: "functions", key: `${file}#${span.name}`, file, line, lines: length });
    }
  }
  return overruns;
}

export async function measureTree(root: string): Promise<{ files: number; overruns: Overrun[] }> {
  const files: string[] = [];
  for (const dir of CHECKED_DIRS) files.push(...await listSources(root, dir));
  for (const file of CHECKED_FILES) {
    if (await exists(`${root}/${file}`)) files.push(file);
  }
  const overruns: Overrun[] = [];
  for (const file of files) overruns.push(...measureFile(file, await Deno.readTextFile(`${root}/${file}`)));
  overruns.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
  return { files: files.length, overruns };
}

export async function readBaseline(root: string): Promise<Baseline> {
  const path = `${root}/${BASELINE_PATH}`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { files: {}, functions: {} };
    throw error;
  }
  const value = JSON.parse(text);
  if (!isBudgets(value?.files) || !isBudgets(value?.functions)) {
    throw new SyntaxError(
      `Cannot parse "${path}": expected {"files": {...}, "functions": {...}} of line counts`,
    );
  }
  return { files: value.files, functions: value.functions };
}

function isBudgets(value: unknown): value is Record<string, number> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.values(value).every((lines) => Number.isInteger(lines) && lines > 0);
}

export function compareBaseline(files: number, overruns: Overrun[], baseline: Baseline): SizeReport {
  const report: SizeReport = { files, overruns, failures: [], tolerated: [], removable: [], shrunk: [] };
  const current = new Set(overruns.map((overrun) => `${overrun.kind}:${overrun.key}`));
  for (const overrun of overruns) {
    const budget = baseline[overrun.kind][overrun.key];
    if (budget === undefined || overrun.lines > budget) report.failures.push(describe(overrun, budget));
    else report.tolerated.push(overrun);
    if (budget !== undefined && overrun.lines < budget) {
      report.shrunk.push(`"${overrun.key}" shrank from ${budget} to ${overrun.lines} lines`);
    }
  }
  for (const kind of ["files", "functions"] as const) {
    for (const key of Object.keys(baseline[kind])) {
      if (!current.has(`${kind}:${key}`)) report.removable.push(key);
    }
  }
  return report;
}

function describe(overrun: Overrun, budget: number | undefined): string {
  const where = `${overrun.file}:${overrun.line}`;
  if (overrun.kind === "files") {
    const what = budget === undefined
      ? `file has ${overrun.lines} lines, over the ${FILE_LIMIT}-line limit`
      : `file grew to ${overrun.lines} lines, past its baseline budget of ${budget}`;
    return `${where}: ${what} — split the file along its concerns (one main export per file, helpers in _private.ts)`;
  }
  const name = overrun.key.slice(overrun.key.indexOf("#") + 1);
  const what = budget === undefined
    ? `function "${name}" has ${overrun.lines} lines, over the ${FUNCTION_LIMIT}-line limit`
    : `function "${name}" grew to ${overrun.lines} lines, past its baseline budget of ${budget}`;
  return `${where}: ${what} — split it along its steps into named helpers, or move a concern into its own file`;
}

export async function checkSize(root: string): Promise<SizeReport> {
  const { files, overruns } = await measureTree(root);
  return compareBaseline(files, overruns, await readBaseline(root));
}

export interface UpdateResult {
  written: boolean;
  /** Entries that `--update` would add or raise; without `allowWiden` nothing is written. */
  widened: string[];
  baseline: Baseline;
}

/** Records today's overruns; lowering budgets and dropping entries is always allowed. */
export async function updateBaseline(
  root: string,
  options: { allowWiden?: boolean } = {},
): Promise<UpdateResult> {
  const report = await checkSize(root);
  const baseline: Baseline = { files: {}, functions: {} };
  for (const overrun of [...report.overruns].sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) {
    baseline[overrun.kind][overrun.key] = overrun.lines;
  }
  if (report.failures.length > 0 && options.allowWiden !== true) {
    return { written: false, widened: report.failures, baseline };
  }
  await Deno.mkdir(dirname(`${root}/${BASELINE_PATH}`), { recursive: true });
  await Deno.writeTextFile(`${root}/${BASELINE_PATH}`, JSON.stringify(baseline, null, 2) + "\n");
  return { written: true, widened: report.failures, baseline };
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

function printReport(report: SizeReport): number {
  for (const failure of report.failures) console.error(failure);
  for (const key of report.removable) {
    console.log(
      `check_size: "${key}" is within limits now — remove it from ${BASELINE_PATH} (run with --update)`,
    );
  }
  for (const note of report.shrunk) {
    console.log(`check_size: ${note} — run with --update to lower its budget`);
  }
  if (report.failures.length > 0) {
    const count = report.failures.length;
    console.error(`check_size: ${count} ${count === 1 ? "overrun" : "overruns"} in ${report.files} files`);
    return 1;
  }
  const tolerated = report.tolerated.length === 0
    ? ""
    : ` (${report.tolerated.length} recorded overruns tolerated)`;
  console.log(`check_size: ${report.files} files ok${tolerated}`);
  return 0;
}

async function main(args: string[]): Promise<number> {
  const flags = args.filter((arg) => arg.startsWith("--"));
  const positional = args.filter((arg) => !arg.startsWith("--"));
  const unknown = flags.filter((flag) => flag !== "--update" && flag !== "--allow-widen");
  if (unknown.length > 0 || positional.length > 1) {
    console.error(`check_size: unexpected arguments ${JSON.stringify(unknown.concat(positional.slice(1)))}`);
    console.error("usage: check_size.ts [root] [--update [--allow-widen]]");
    return 2;
  }
  const root = resolve(positional[0] ?? ".");
  if (!flags.includes("--update")) return printReport(await checkSize(root));
  const result = await updateBaseline(root, { allowWiden: flags.includes("--allow-widen") });
  if (!result.written) {
    for (const line of result.widened) console.error(line);
    console.error("check_size: refusing to add or raise a budget: fix the code, or pass --allow-widen");
    return 1;
  }
  const entries = Object.keys(result.baseline.files).length + Object.keys(result.baseline.functions).length;
  console.log(`check_size: wrote ${BASELINE_PATH} with ${entries} entries`);
  return 0;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);
