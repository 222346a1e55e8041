/**
 * @module
 * The recall bench: the recall session (tests/support/recall_session.ts) against the simulator, with
 * each CLI (one `run`/`run -c` process per user turn, the same scripted answers, the same
 * `context_window`), printing total cost and the cache hit ratio of the requests before and after each
 * history reset (a request with fewer messages than the one before: a compaction), and how many of the 20
 * facts the last request still carries. BENCH_RECALL_TURNS (default 300) and BENCH_RECALL_WINDOW (8000).
 */
import { join } from "node:path";
import { RECALL_FACTS, recallAnswer, recallTurnText } from "../tests/support/recall_session.ts";
import { DeepSeekSim, type RecordedRequest } from "../tests/support/deepseek_sim.ts";
import type { Contender } from "./_bench_sessions.ts";
import { costOf, priceFor } from "../src/provider/pricing.ts";

/** A weekday at 10:00 Beijing time: peak prices. */
const PEAK = new Date("2026-12-01T02:00:00Z");

interface Segment {
  requests: number;
  prompt: number;
  hit: number;
  cost: number;
}

function segment(requests: readonly RecordedRequest[]): Segment {
  const price = priceFor("deepseek-flash")!;
  let prompt = 0, hit = 0, cost = 0;
  for (const request of requests) {
    const usage = request.usage;
    if (!usage) continue;
    prompt += usage.prompt_tokens;
    hit += usage.prompt_cache_hit_tokens;
    cost += costOf(
      {
        promptTokens: usage.prompt_tokens,
        completionTokens: usage.completion_tokens,
        cacheHitTokens: usage.prompt_cache_hit_tokens,
        cacheMissTokens: usage.prompt_cache_miss_tokens,
        reasoningTokens: 0,
      },
      price,
      { at: PEAK },
    );
  }
  return { requests: requests.length, prompt, hit, cost };
}

function line(name: string, s: Segment): string {
  const ratio = s.prompt > 0 ? (100 * s.hit / s.prompt).toFixed(1) : "0.0";
  return `${name.padEnd(26)}  ${String(s.requests).padStart(4)}  ${String(s.prompt).padStart(9)}  ` +
    `${`${ratio}%`.padStart(6)}  ${`¥${s.cost.toFixed(6)}`.padStart(11)}`;
}

interface CliRun {
  requests: RecordedRequest[];
  failures: number;
  wallMs: number;
}

/** Indexes of the requests that start a new history (fewer messages than the request before). */
function resets(requests: readonly RecordedRequest[]): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < requests.length; i++) {
    if (requests[i]!.json.messages.length < requests[i - 1]!.json.messages.length) cuts.push(i);
  }
  return cuts;
}

export function recallReport(run: CliRun): string[] {
  const cuts = [0, ...resets(run.requests), run.requests.length];
  const out = [`${"segment".padEnd(26)}  reqs     prompt     hit         cost`];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const name = i === 0 ? "before compaction 1" : `after compaction ${i}`;
    out.push(line(name, segment(run.requests.slice(cuts[i], cuts[i + 1]))));
  }
  out.push(line("total", segment(run.requests)));
  // Re-serialised, so the check does not depend on how a client escapes its JSON.
  const last = JSON.stringify(run.requests.at(-1)?.json?.messages ?? []);
  const kept = RECALL_FACTS.filter((fact) => last.includes(JSON.stringify(fact).slice(1, -1))).length;
  out.push(
    `facts verbatim in the last request: ${kept}/${RECALL_FACTS.length}; failed turns: ${run.failures}; ` +
      `wall ${(run.wallMs / 1000).toFixed(0)} s`,
  );
  return out;
}

async function runCli(contender: Contender, turns: number, window: number): Promise<CliRun> {
  const sim = await DeepSeekSim.start({ script: recallAnswer });
  const home = await Deno.makeTempDir({ prefix: "bench-recall-home-" });
  const ws = await Deno.makeTempDir({ prefix: "bench-recall-ws-" });
  await Deno.writeTextFile(
    join(home, "config.toml"),
    `default_model = "deepseek-flash"\n\n[[providers]]\nname = "deepseek-flash"\nkind = "openai"\n` +
      `base_url = "${sim.url}"\nmodel = "deepseek-flash"\napi_key_env = "DEEPSEEK_API_KEY"\n` +
      `reasoning_protocol = "deepseek"\ncontext_window = ${window}\n`,
  );
  await Deno.writeTextFile(join(home, ".env"), "DEEPSEEK_API_KEY=sk-bench\n");
  const env: Record<string, string> = { REASONIX_HOME: home, NO_COLOR: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  let failures = 0;
  const started = performance.now();
  try {
    for (let turn = 1; turn <= turns; turn++) {
      const out = await new Deno.Command(contender.command(recallTurnText(turn), turn > 1)[0]!, {
        args: contender.command(recallTurnText(turn), turn > 1).slice(1),
        cwd: ws,
        env,
        clearEnv: true,
        stdout: "null",
        stderr: "null",
      }).output();
      if (!out.success) failures++;
    }
    return { requests: [...sim.requests], failures, wallMs: performance.now() - started };
  } finally {
    await sim.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(ws, { recursive: true });
  }
}

export async function runRecallBench(contenders: readonly Contender[]): Promise<void> {
  const turns = Number(Deno.env.get("BENCH_RECALL_TURNS") ?? "300");
  const window = Number(Deno.env.get("BENCH_RECALL_WINDOW") ?? "8000");
  console.log(`\n## recall session (${turns} turns, 20 facts stated first, context_window ${window})`);
  for (const contender of contenders) {
    console.log(`\n### ${contender.name}`);
    for (const text of recallReport(await runCli(contender, turns, window))) console.log(text);
  }
}
