/**
 * `deno run --no-prompt -A scripts/bench_file_io.ts [calls]`: read_file and write_file per call with
 * the session's file agent, and with the bash helper it replaced as the default (docs/PERFORMANCE.md).
 * Figures are printed, never asserted.
 */
import { join } from "node:path";
import { DirectSandbox } from "../src/sandbox/none.ts";
import { FsAgent } from "../src/sandbox/fs_agent.ts";
import { readFileTool } from "../src/tool/builtin/read_file.ts";
import { writeFileTool } from "../src/tool/builtin/write_file.ts";
import type { ToolContext } from "../src/tool/tool.ts";

const CALLS = Number(Deno.args[0] ?? "200");

async function perCall(name: string, fn: (i: number) => Promise<unknown>): Promise<void> {
  await fn(-1);
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await fn(i);
  console.log(
    `  ${name.padEnd(12)}${((performance.now() - started) / CALLS).toFixed(2).padStart(8)} ms/call`,
  );
}

async function bench(label: string, ctx: ToolContext): Promise<void> {
  console.log(label);
  await perCall("read_file", () => readFileTool.execute({ path: "src/a/f.ts" }, ctx));
  await perCall("write_file", (i) => writeFileTool.execute({ path: "src/a/g.ts", content: `v ${i}\n` }, ctx));
}

const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix_bench_io_" }));
await Deno.mkdir(join(root, "src", "a"), { recursive: true });
await Deno.writeTextFile(join(root, "src", "a", "f.ts"), "export const x = 1;\n".repeat(200));
const base: ToolContext = {
  signal: new AbortController().signal,
  workspace: { root, extraWritable: [], forbidRead: [] },
  sandbox: new DirectSandbox(),
  limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 32_000 },
};
const files = new FsAgent(Deno.env.toObject());
try {
  const started = performance.now();
  await readFileTool.execute({ path: "src/a/f.ts" }, { ...base, files });
  console.log(`agent start + first read_file: ${(performance.now() - started).toFixed(1)} ms`);
  await bench(`file agent (${CALLS} calls)`, { ...base, files });
  await bench("bash helper (no agent)", base);
} finally {
  await files.close();
  await Deno.remove(root, { recursive: true });
}
