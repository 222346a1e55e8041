/**
 * Runs each scenario with each CLI against a fresh simulator: one process per user turn (`run`, then
 * `run -c`), and reports requests, prompt tokens, cache hits, hits ÷ the ideal of a perfect
 * prepend-only client, cost, wall time and the first request's prompt tokens by part. Every token
 * figure is the simulator's, counted with DeepSeek V3's tokenizer.
 */
import { join } from "node:path";
import { DeepSeekSim, type PromptBreakdown, promptBreakdown } from "../tests/support/deepseek_sim.ts";
import { idealHitTokens } from "../tests/support/ideal_cache.ts";
import { priceFor, receiptFor } from "../src/provider/pricing.ts";
import type { Scenario } from "./_bench_scenarios.ts";

export interface Contender {
  name: string;
  /** The argv of one user turn. */
  command: (task: string, continued: boolean) => string[];
}

export interface Figures {
  wallMs: number;
  peakRssMb: number;
  requests: number;
  promptTokens: number;
  hitTokens: number;
  idealHitTokens: number;
  cost: number;
  failures: number;
  /** Prompt tokens of the session's first request by part, and how many tool schemas it sent. */
  firstRequest: PromptBreakdown & { toolCount: number };
}

/** A fixed peak-hour instant, so both CLIs are priced alike whenever the bench runs. */
const PRICED_AT = new Date("2026-12-02T02:00:00Z");

async function prepare(sim: DeepSeekSim, scenario: Scenario) {
  const home = await Deno.makeTempDir({ prefix: "bench-home-" });
  const toml =
    `default_model = "deepseek-flash"\n\n[[providers]]\nname = "deepseek-flash"\nkind = "openai"\n` +
    `base_url = "${sim.url}"\nmodel = "deepseek-flash"\napi_key_env = "DEEPSEEK_API_KEY"\n` +
    `reasoning_protocol = "deepseek"\n`;
  await Deno.writeTextFile(join(home, "config.toml"), toml);
  await Deno.writeTextFile(join(home, ".env"), "DEEPSEEK_API_KEY=sk-bench\n");
  const ws = await Deno.makeTempDir({ prefix: "bench-ws-" });
  for (const [name, text] of Object.entries(scenario.files)) {
    await Deno.mkdir(join(ws, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(ws, name), text);
  }
  return { home, ws };
}

function benchEnv(home: string): Record<string, string> {
  const env: Record<string, string> = { REASONIX_HOME: home, NO_COLOR: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

async function runTurn(argv: string[], ws: string, home: string): Promise<{ ok: boolean; rssKb: number }> {
  const rssFile = join(home, "rss.txt");
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%M", "-o", rssFile, ...argv],
    cwd: ws,
    env: benchEnv(home),
    clearEnv: true,
    stdout: "null",
    stderr: "null",
  }).output();
  const rssKb = Number((await Deno.readTextFile(rssFile)).trim().split("\n").at(-1));
  return { ok: out.code === 0, rssKb };
}

export async function measure(contender: Contender, scenario: Scenario): Promise<Figures> {
  const sim = await DeepSeekSim.start({ script: scenario.turns.flatMap((turn) => turn.script) });
  const { home, ws } = await prepare(sim, scenario);
  try {
    let failures = 0;
    let peakKb = 0;
    const started = performance.now();
    for (const [i, turn] of scenario.turns.entries()) {
      const result = await runTurn(contender.command(turn.task, i > 0), ws, home);
      if (!result.ok) failures++;
      peakKb = Math.max(peakKb, result.rssKb);
    }
    const wallMs = performance.now() - started;
    await dumpRequests(sim, contender, scenario);
    const stats = sim.stats();
    const usage = {
      promptTokens: stats.promptTokens,
      completionTokens: stats.completionTokens,
      cacheHitTokens: stats.hitTokens,
      cacheMissTokens: stats.missTokens,
      reasoningTokens: 0,
    };
    return {
      wallMs,
      peakRssMb: peakKb / 1024,
      requests: stats.requests,
      promptTokens: stats.promptTokens,
      hitTokens: stats.hitTokens,
      idealHitTokens: idealHitTokens(sim.requests),
      cost: receiptFor(usage, priceFor("deepseek-flash"), PRICED_AT).cost ?? 0,
      failures,
      firstRequest: firstRequestBreakdown(sim),
    };
  } finally {
    await sim.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(ws, { recursive: true });
  }
}

function firstRequestBreakdown(sim: DeepSeekSim): Figures["firstRequest"] {
  const first = sim.requests.find((request) => request.usage !== undefined)?.json;
  if (!first) return { system: 0, tools: 0, context: 0, total: 0, toolCount: 0 };
  const toolCount = Array.isArray(first.tools) ? first.tools.length : 0;
  return { ...promptBreakdown(first), toolCount };
}

/** With BENCH_DUMP=<dir>, writes every request body and its usage as JSON lines, for a diff by hand. */
async function dumpRequests(sim: DeepSeekSim, contender: Contender, scenario: Scenario): Promise<void> {
  const dir = Deno.env.get("BENCH_DUMP");
  if (!dir) return;
  await Deno.mkdir(dir, { recursive: true });
  const slug = (text: string) => text.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
  const lines = sim.requests.map((request) => JSON.stringify({ usage: request.usage, body: request.json }));
  await Deno.writeTextFile(
    join(dir, `${slug(contender.name)}--${slug(scenario.name)}.jsonl`),
    lines.join("\n") + "\n",
  );
}
