/**
 * How long `reasonix session list` takes with many sessions (5,000 by default, BENCH_SESSIONS=N):
 * in-process with a cold summary cache (every session read whole) and a warm one (headers from the
 * cache, one stat per session), then the real CLI, warm, as a person runs it.
 */
import { join, resolve } from "node:path";
import { workspaceDir } from "../src/session/_paths.ts";
import { listWorkspaceSessions } from "../src/session/listing.ts";
import { median } from "./_bench_tools.ts";

const ROOT = resolve(import.meta.dirname!, "..");

function sessionLines(id: string, workspace: string, n: number): string {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
  const usage = { promptTokens: 9000, completionTokens: 300, cacheHitTokens: 8000, cacheMissTokens: 1000 };
  const records = [
    {
      type: "session",
      v: 1,
      id,
      workspace,
      createdAt: at,
      model: "deepseek-flash",
      provider: "deepseek-flash",
    },
    { type: "message", message: { role: "system", content: "You are Reasonix. ".repeat(100) } },
    { type: "message", message: { role: "user", content: "<session-context>…</session-context>" } },
  ];
  for (let turn = 0; turn < 3; turn++) {
    records.push(
      { type: "message", message: { role: "user", content: `task ${n}.${turn}: fix the parser` } },
      { type: "message", message: { role: "assistant", content: "Done. ".repeat(40) } },
      {
        type: "usage",
        usage: { ...usage, reasoningTokens: 0 },
        model: "deepseek-flash",
        cost: 0.002,
        currency: "CNY",
        at,
      } as never,
    );
  }
  return records.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

export async function runSessionListBench(options: { runs: number }): Promise<void> {
  const count = Number(Deno.env.get("BENCH_SESSIONS") ?? "5000");
  const home = await Deno.makeTempDir({ prefix: "bench-list-" });
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "bench-list-ws-" }));
  const sessionsDir = join(home, "sessions");
  try {
    const dir = workspaceDir(sessionsDir, ws);
    await Deno.mkdir(dir, { recursive: true });
    for (let n = 0; n < count; n++) {
      const id = `20260101-${String(n).padStart(6, "0")}-bench${String(n % 1000).padStart(3, "0")}`;
      await Deno.writeTextFile(join(dir, `${id}.jsonl`), sessionLines(id, ws, n));
    }
    let started = performance.now();
    const listed = await listWorkspaceSessions(sessionsDir, ws);
    const cold = performance.now() - started;
    const warm: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      started = performance.now();
      await listWorkspaceSessions(sessionsDir, ws);
      warm.push(performance.now() - started);
    }
    const cli: number[] = [];
    const empty: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      cli.push(await timeCli(home, ws));
      empty.push(await timeCli(home, home));
    }
    console.log(`\n## session list with ${listed.length} sessions (${options.runs} runs, median)`);
    console.log(`in-process, cold summary cache: ${cold.toFixed(0)} ms`);
    console.log(`in-process, warm summary cache: ${median(warm).toFixed(0)} ms`);
    console.log(`reasonix session list (process wall time, warm): ${median(cli).toFixed(0)} ms`);
    console.log(
      `reasonix session list in a workspace with no sessions (startup alone): ${median(empty).toFixed(0)} ms`,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(ws, { recursive: true });
  }
}

async function timeCli(home: string, ws: string): Promise<number> {
  const env: Record<string, string> = { REASONIX_HOME: home, NO_COLOR: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", join(ROOT, "main.ts"), "session", "list"],
    cwd: ws,
    env,
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return performance.now() - started;
}
