/**
 * @module
 * The "tools" section of `deno task bench`, measured in-process: grep over a generated 50k-file tree
 * (our tool through the dispatcher vs raw `rg`), read_file pages of a 10 MB file, and the loop's cost
 * per tool round trip against the simulator. Figures are printed, never asserted.
 */
import { join } from "node:path";
import { dispatchToolCalls } from "../src/agent/dispatch.ts";
import { resolvePaths } from "../src/config/paths.ts";
import { bootController } from "../src/control/boot.ts";
import type { ToolCall } from "../src/provider/provider.ts";
import { DirectSandbox } from "../src/sandbox/none.ts";
import { builtinRegistry } from "../src/tool/builtin/mod.ts";
import type { ToolRegistry } from "../src/tool/registry.ts";
import type { ToolContext } from "../src/tool/tool.ts";
import { DeepSeekSim, type ScriptedReply } from "../tests/support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../tests/support/cli.ts";

const TREE_FILES = 50_000;
const TREE_FANOUT = [50, 20, 50] as const;
const NEEDLE = "bench_needle_7f3a";
const NEEDLE_EVERY = 337;
const BIG_FILE_BYTES = 10 * 1024 * 1024;
const LOOP_ROUND_TRIPS = 50;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

async function medianOf<T>(runs: number, fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const samples: { ms: number; value: T }[] = [];
  for (let i = 0; i < runs; i++) samples.push(await timed(fn));
  return { ms: median(samples.map((s) => s.ms)), value: samples.at(-1)!.value };
}

function toolContext(root: string): ToolContext {
  return {
    signal: new AbortController().signal,
    workspace: { root, extraWritable: [], forbidRead: [] },
    sandbox: new DirectSandbox(),
    limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 32_000 },
  };
}

let callCounter = 0;

async function callTool(ctx: ToolContext, registry: ToolRegistry, name: string, args: unknown) {
  const call: ToolCall = {
    id: `bench_${++callCounter}`,
    type: "function",
    function: { name, arguments: JSON.stringify(args) },
  };
  const [outcome] = await dispatchToolCalls([call], { registry, ctx });
  return outcome!;
}

function fileText(index: number): string {
  const lines = [
    `// file ${index}: generated for the grep benchmark`,
    `export const value${index} = ${index * 7};`,
    index % NEEDLE_EVERY === 0 ? `// ${NEEDLE} lives here` : "// nothing to see here",
    `export function f${index}(x) { return x + ${index}; }`,
  ];
  return `${lines.join("\n")}\n`;
}

/** Writes the 50k-file tree (dirs/subdirs/files); returns how many files hold the needle. */
async function writeTree(root: string): Promise<number> {
  const [dirs, subdirs, files] = TREE_FANOUT;
  let index = 0;
  let needles = 0;
  for (let d = 0; d < dirs; d++) {
    const writes: Promise<void>[] = [];
    for (let s = 0; s < subdirs; s++) {
      const dir = join(root, `pkg${d}`, `mod${s}`);
      await Deno.mkdir(dir, { recursive: true });
      for (let f = 0; f < files; f++, index++) {
        if (index % NEEDLE_EVERY === 0) needles++;
        writes.push(Deno.writeTextFile(join(dir, `file${f}.js`), fileText(index)));
      }
    }
    await Promise.all(writes);
  }
  return needles;
}

async function rawRg(root: string): Promise<number> {
  const out = await new Deno.Command("rg", {
    args: ["-n", "--no-heading", NEEDLE, "."],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((line) => line !== "").length;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`.padStart(11);
}

async function benchGrep(temp: string, registry: ToolRegistry, runs: number): Promise<void> {
  const root = join(temp, "tree");
  const made = await timed(() => writeTree(root));
  console.log(
    `\n### grep over ${TREE_FILES} files (${made.value} hold the pattern; tree written in ` +
      `${(made.ms / 1000).toFixed(1)} s)`,
  );
  const ctx = toolContext(root);
  const ours = await medianOf(runs, () => callTool(ctx, registry, "grep", { pattern: NEEDLE }));
  const lines = ours.value.output.split("\n").filter((line) => line.includes(NEEDLE)).length;
  const status = ours.value.ok ? `${lines} matching lines` : ours.value.output.slice(0, 120);
  console.log(`${"reasonix grep tool".padEnd(28)}${ms(ours.ms)}  ${status}`);
  const rg = await medianOf(runs, () => rawRg(root));
  console.log(`${"rg (raw, same tree)".padEnd(28)}${ms(rg.ms)}  ${rg.value} matching lines`);
  console.log(`ratio ours/rg: ${(ours.ms / rg.ms).toFixed(2)}x`);
}

async function writeBigFile(path: string): Promise<number> {
  const line = "The quick brown fox jumps over the lazy dog; ".repeat(2).trimEnd();
  const lineCount = Math.ceil(BIG_FILE_BYTES / (line.length + 8));
  const lines = Array.from({ length: lineCount }, (_, i) => `${String(i + 1).padStart(6, "0")} ${line}`);
  await Deno.writeTextFile(path, `${lines.join("\n")}\n`);
  return lineCount;
}

async function benchReadFile(temp: string, registry: ToolRegistry, runs: number): Promise<void> {
  const root = join(temp, "big");
  await Deno.mkdir(root);
  const lineCount = await writeBigFile(join(root, "big.txt"));
  const size = (await Deno.stat(join(root, "big.txt"))).size;
  console.log(`\n### read_file of a ${(size / 1024 / 1024).toFixed(1)} MB file (${lineCount} lines)`);
  const ctx = toolContext(root);
  const middle = Math.floor(lineCount / 2);
  const pages: [string, Record<string, unknown>][] = [
    ["first page", { path: "big.txt" }],
    [`page at offset ${middle}`, { path: "big.txt", offset: middle }],
    [`100 lines at offset ${middle}`, { path: "big.txt", offset: middle, limit: 100 }],
  ];
  for (const [label, args] of pages) {
    const read = await medianOf(runs, () => callTool(ctx, registry, "read_file", args));
    const bytes = new TextEncoder().encode(read.value.output).length;
    const note = read.value.ok
      ? `${bytes} bytes to the model${read.value.truncated ? " (cut to the output budget)" : ""}`
      : read.value.output.slice(0, 120);
    console.log(`${label.padEnd(28)}${ms(read.ms)}  ${note}`);
  }
}

async function benchLoop(runs: number): Promise<void> {
  console.log(`\n### loop overhead: ${LOOP_ROUND_TRIPS} ls round trips, then an answer (simulator)`);
  const perTrip: number[] = [];
  const toolMs: number[] = [];
  let status = "";
  for (let i = 0; i < runs; i++) {
    const run = await oneLoopRun();
    perTrip.push(run.wallMs / LOOP_ROUND_TRIPS);
    toolMs.push(run.toolMs / LOOP_ROUND_TRIPS);
    status = run.status;
  }
  console.log(`${"per round trip".padEnd(28)}${ms(median(perTrip))}  ${status}`);
  console.log(`${"  of which ls itself".padEnd(28)}${ms(median(toolMs))}`);
  console.log(`${"turn total".padEnd(28)}${ms(median(perTrip) * LOOP_ROUND_TRIPS)}`);
}

const LS_CALL = {
  name: "use_capability",
  arguments: `{"action":"call","capability_id":"tool:ls","arguments":{}}`,
};

async function oneLoopRun(): Promise<{ wallMs: number; toolMs: number; status: string }> {
  const script: ScriptedReply[] = [
    // ls is reached through use_capability, as the model reaches it.
    ...Array.from({ length: LOOP_ROUND_TRIPS }, () => ({ toolCalls: [LS_CALL] })),
    { content: "Listed it." },
  ];
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "README.md": "# bench\n", "src/a.ts": "export const a = 1;\n" });
  try {
    const controller = await bootController({
      cwd: ws,
      headless: true,
      env: {},
      paths: resolvePaths({ REASONIX_HOME: home }),
    });
    let toolMs = 0;
    let failed = 0;
    controller.subscribe((event) => {
      if (event.type !== "tool_result") return;
      toolMs += event.durationMs;
      if (!event.ok) failed++;
    });
    try {
      const turn = await timed(() => controller.runTurn("list the workspace fifty times"));
      const status = `${turn.value.subtype}, ${sim.stats().requests} requests, ${failed} failed calls`;
      return { wallMs: turn.ms, toolMs, status };
    } finally {
      await controller.close();
    }
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

/** Prints the "tools" section; `runs` samples per figure, median shown. */
export async function runToolBenches(options: { runs: number }): Promise<void> {
  const registry = builtinRegistry();
  const temp = await Deno.realPath(await Deno.makeTempDir({ prefix: "bench-tools-" }));
  console.log(`\n## tools (in-process, median of ${options.runs})`);
  try {
    await benchGrep(temp, registry, options.runs);
    await benchReadFile(temp, registry, options.runs);
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
  await benchLoop(options.runs);
}
