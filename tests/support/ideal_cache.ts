/**
 * The cache hits a perfect prepend-only client would get on the same conversation: each request
 * replays the previous request and its answer exactly, so everything but the new tail hits.
 */
import { inputTokens, renderOutput } from "./_sim_render.ts";
import type { RecordedRequest } from "./_sim_types.ts";
import { countTokens } from "./tokenizer.ts";

export function idealHitTokens(requests: readonly RecordedRequest[]): number {
  let ideal = 0;
  for (let i = 1; i < requests.length; i++) {
    const previous = requests[i - 1]!;
    const current = requests[i]!;
    if (!previous.generated || !current.usage) continue;
    const replayed = inputTokens(previous.json).length + countTokens(renderOutput(previous.generated));
    ideal += Math.min(current.usage.prompt_tokens, replayed);
  }
  return ideal;
}
