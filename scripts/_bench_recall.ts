/**
 * @module
 * The recall bench: the 300-turn recall session (tests/support/recall_session.ts) in-process against
 * the simulator, printing its total cost and the cache hit ratio of the requests before and after each
 * compaction. The Go Reasonix is not run on it: its headless `run` takes one prompt per process, and
 * 300 `run -c` launches with its own compaction settings are not the same script (see docs/CONTEXT.md).
 */
import { RECALL_FACTS, type RecallRun, runRecallSession } from "../tests/support/recall_session.ts";
import type { RecordedRequest } from "../tests/support/deepseek_sim.ts";
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

export function recallReport(run: RecallRun): string[] {
  const cuts = [0, ...run.compactionsBefore, run.requests.length];
  const out = [`${"segment".padEnd(26)}  reqs     prompt     hit         cost`];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const name = i === 0 ? "before compaction 1" : `after compaction ${i}`;
    out.push(line(name, segment(run.requests.slice(cuts[i], cuts[i + 1]))));
  }
  out.push(line("total", segment(run.requests)));
  const last = run.requests.at(-1)?.body ?? "";
  const kept = RECALL_FACTS.filter((fact) => last.includes(JSON.stringify(fact).slice(1, -1))).length;
  out.push(
    `facts verbatim in the last request: ${kept}/${RECALL_FACTS.length}; failed turns: ${run.failures}`,
  );
  return out;
}

export async function runRecallBench(): Promise<void> {
  console.log("\n## recall session (300 turns, 20 facts, context_window 8000, ours only)");
  const run = await runRecallSession({ turns: 300, window: 8000 });
  for (const text of recallReport(run)) console.log(text);
}

if (import.meta.main) await runRecallBench();
