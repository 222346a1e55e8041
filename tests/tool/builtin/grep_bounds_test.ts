/**
 * grep bounded in time and memory, and truthful about it: FIFOs (given directly or met in a walk) are
 * skipped at once and counted, a 300 MB single-line file does not grow ripgrep's memory, a slow search
 * stops at its time limit with what it found, and "No matches" is said only when everything was searched.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { grepTool } from "../../../src/tool/builtin/grep.ts";
import { globTool } from "../../../src/tool/builtin/glob.ts";
import { DirectSandbox } from "../../../src/sandbox/none.ts";
import type { RunOptions, RunResult, Sandbox } from "../../../src/sandbox/sandbox.ts";
import type { ToolContext } from "../../../src/tool/tool.ts";
import {
  makeTestWorkspace,
  NoRgSandbox,
  RecordingSandbox,
  SEARCH_BACKENDS,
  type TestWorkspace,
} from "../_tool_context.ts";
import { mkfifo, promptly } from "../_fifo.ts";

const UNIX = Deno.build.os !== "windows";

/** Short bash timeout: before the fix a blocked rg waited for it (120 s by default). */
function boundedCtx(t: TestWorkspace, extra: Partial<ToolContext["limits"]> = {}): ToolContext {
  return { ...t.ctx, limits: { ...t.ctx.limits, bashTimeoutSeconds: 8, ...extra } };
}

for (const backend of SEARCH_BACKENDS) {
  Deno.test({
    name: `grep on a FIFO given directly returns at once and says it was skipped (${backend.name})`,
    ignore: !UNIX,
    async fn() {
      await using t = await makeTestWorkspace({ sandbox: backend.make() });
      const fifo = join(t.root, "pipe");
      await mkfifo(fifo);
      const started = performance.now();
      const result = await promptly(grepTool.execute({ pattern: "needle", path: "pipe" }, boundedCtx(t)), 5, [
        fifo,
      ]);
      assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
      assert.deepEqual(result, {
        output: 'No matches for "needle" in the files searched in pipe; skipped 1 file (1 FIFO)',
        data: { kind: "search", pattern: "needle", matches: 0, files: 0, skipped: 1 },
      });
    },
  });

  Deno.test({
    name: `grep over a directory with a FIFO counts it and still finds the matches (${backend.name})`,
    ignore: !UNIX,
    async fn() {
      await using t = await makeTestWorkspace({ sandbox: backend.make() });
      await t.write("src/a.txt", "needle here\n");
      const fifo = join(t.root, "src", "pipe");
      await mkfifo(fifo);
      const ctx = boundedCtx(t);
      const started = performance.now();
      const hit = await promptly(grepTool.execute({ pattern: "needle" }, ctx), 5, [fifo]);
      assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
      assert.equal(hit.output, "src/a.txt\n1:needle here\n... skipped 1 file (1 FIFO)");
      assert.deepEqual(hit.data, { kind: "search", pattern: "needle", matches: 1, files: 1, skipped: 1 });
      const none = await promptly(grepTool.execute({ pattern: "absent" }, ctx), 5, [fifo]);
      assert.equal(
        none.output,
        'No matches for "absent" in the files searched in .; skipped 1 file (1 FIFO)',
      );
      // A FIFO the glob leaves out was never a candidate: nothing to report.
      const narrowed = await promptly(grepTool.execute({ pattern: "absent", glob: "*.txt" }, ctx), 5, [fifo]);
      assert.equal(narrowed.output, 'No matches for "absent" in .');
      assert.deepEqual(narrowed.data, { kind: "search", pattern: "absent", matches: 0, files: 0 });
    },
  });
}

Deno.test({
  name: "the fallback walker does not block on a .gitignore that is a FIFO (grep and glob)",
  ignore: !UNIX,
  async fn() {
    await using t = await makeTestWorkspace({ sandbox: new NoRgSandbox() });
    await t.write("a.txt", "needle\n");
    const fifo = join(t.root, ".gitignore");
    await mkfifo(fifo);
    const ctx = boundedCtx(t);
    const found = await promptly(grepTool.execute({ pattern: "needle" }, ctx), 5, [fifo]);
    assert.equal(found.output, "a.txt\n1:needle\n... skipped 1 file (1 FIFO)");
    const listed = await promptly(globTool.execute({ pattern: "*.txt" }, ctx), 5, [fifo]);
    assert.equal(listed.output, "a.txt");
  },
});

/**
 * Runs rg under a bash watcher that samples its VmHWM (peak RSS) from /proc every 10 ms, so the test
 * measures the real rg process the tool started.
 */
class PeakRssSandbox implements Sandbox {
  readonly name = "test-peak-rss";
  readonly peaksKb: number[] = [];
  readonly #inner = new DirectSandbox();

  runShell(command: string, options: RunOptions): Promise<RunResult> {
    return this.#inner.runShell(command, options);
  }

  async runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    if (argv[0] !== "rg" || argv.includes("--version")) return await this.#inner.runArgv(argv, options);
    const report = await Deno.makeTempFile({ prefix: "reasonix_hwm_" });
    const watcher = [
      'report="$1"; shift',
      '"$@" & pid=$!; peak=0',
      "while kill -0 $pid 2>/dev/null; do",
      '  kb=$(sed -n "s/^VmHWM:[[:space:]]*\\([0-9]*\\).*/\\1/p" /proc/$pid/status 2>/dev/null)',
      '  [ -n "$kb" ] && [ "$kb" -gt "$peak" ] && peak=$kb',
      "  sleep 0.01",
      "done",
      'wait $pid; code=$?; echo "$peak" > "$report"; exit $code',
    ].join("\n");
    try {
      const result = await this.#inner.runArgv(["bash", "-c", watcher, "watch", report, ...argv], options);
      this.peaksKb.push(Number((await Deno.readTextFile(report)).trim() || "0"));
      return result;
    } finally {
      await Deno.remove(report).catch(() => {});
    }
  }
}

/** A text file of `megabytes` MB with no newline at all (written in 1 MB chunks). */
async function writeOneLine(path: string, megabytes: number): Promise<void> {
  using file = await Deno.open(path, { write: true, create: true });
  const chunk = new TextEncoder().encode("abcdefghij".repeat(100_000));
  for (let i = 0; i < megabytes; i++) await file.write(chunk);
}

Deno.test({
  name: "grep skips a 300 MB single-line file: ripgrep's peak RSS stays under 200 MB, and it says so",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const sandbox = new PeakRssSandbox();
    await using t = await makeTestWorkspace({ sandbox });
    await t.write("small.txt", "nothing to see\n");
    await writeOneLine(join(t.root, "huge.txt"), 300);
    const expected = "skipped 1 file (1 larger than 10 MB)";
    const tree = await grepTool.execute({ pattern: "needle" }, t.ctx);
    assert.equal(tree.output, `No matches for "needle" in the files searched in .; ${expected}`);
    assert.deepEqual(tree.data, { kind: "search", pattern: "needle", matches: 0, files: 0, skipped: 1 });
    const direct = await grepTool.execute({ pattern: "needle", path: "huge.txt" }, t.ctx);
    assert.equal(direct.output, `No matches for "needle" in the files searched in huge.txt; ${expected}`);
    assert.ok(sandbox.peaksKb.length > 0, "no rg run was measured");
    const peakKb = Math.max(...sandbox.peaksKb);
    assert.ok(peakKb < 200 * 1024, `ripgrep peaked at ${Math.round(peakKb / 1024)} MB`);

    await using fallback = await makeTestWorkspace({ sandbox: new NoRgSandbox() });
    await Deno.rename(join(t.root, "huge.txt"), join(fallback.root, "huge.txt"));
    const js = await grepTool.execute({ pattern: "needle" }, fallback.ctx);
    assert.equal(js.output, `No matches for "needle" in the files searched in .; ${expected}`);
  },
});

/**
 * Unicode `\b` keeps ripgrep off its fast DFA: about 5 s per 9 MB of Greek text here, and each file is
 * searched by one thread, so no machine gets through a file within the 1 s limit.
 */
const SLOW_PATTERN = String.raw`(\b\w+\b\s){8}\d`;
const HIT = "άλφα βήτα γάμμα δέλτα έψιλον ζήτα θήτα κάππα 7";

async function seedSlowTree(t: TestWorkspace): Promise<void> {
  await t.write("a.txt", `${HIT}\n`);
  const words = ["άλφα", "βήτα", "γάμμα", "δέλτα", "έψιλον", "ζήτα", "θήτα", "κάππα"];
  const line = Array.from({ length: 12 }, (_, i) => words[(i * 5) % words.length]).join(" ") + "\n";
  const body = line.repeat(Math.floor(9_000_000 / new TextEncoder().encode(line).length));
  for (let i = 0; i < 6; i++) await t.write(`slow/part${i}.txt`, body);
}

Deno.test("grep stops at its time limit, keeps what ripgrep found and says the result may be incomplete", async () => {
  await using t = await makeTestWorkspace({ sandbox: new RecordingSandbox() });
  await seedSlowTree(t);
  const ctx = boundedCtx(t, { grepTimeoutSeconds: 1 });
  const started = performance.now();
  const result = await grepTool.execute({ pattern: SLOW_PATTERN }, ctx);
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 5000, `took ${elapsed} ms`);
  assert.equal(
    result.output,
    `a.txt\n1:${HIT}\n... timed out after 1 s; results may be incomplete`,
  );
  assert.deepEqual(result.data, {
    kind: "search",
    pattern: SLOW_PATTERN,
    matches: 1,
    files: 1,
    timedOut: true,
  });
});

Deno.test('the fallback search stops at its time limit too and never says a bare "No matches"', async () => {
  await using t = await makeTestWorkspace({ sandbox: new NoRgSandbox() });
  await t.write("a.txt", "needle\n");
  const result = await grepTool.execute({ pattern: "absent" }, boundedCtx(t, { grepTimeoutSeconds: 0 }));
  assert.equal(
    result.output,
    'No matches for "absent" in the files searched in .; timed out after 0 s; results may be incomplete',
  );
  assert.deepEqual(result.data, { kind: "search", pattern: "absent", matches: 0, files: 0, timedOut: true });
});
