/**
 * @module
 * Events as JSON lines: full (`stream-json`, `--trajectory`) and redacted (`--events-jsonl`: no
 * content, pseudonymous tool ids and names, so logs can be shared).
 */
import type { ReasonixEvent } from "../../control/mod.ts";

export function streamJsonLine(
  event: ReasonixEvent,
  seq: number,
  sessionId: string,
): Record<string, unknown> {
  return { seq, sessionId, ts: Date.now(), ...event };
}

export function trajectoryLine(event: ReasonixEvent, seq: number): Record<string, unknown> {
  return { schema_version: 1, seq, ts: Date.now(), event };
}

export class Redactor {
  #ids = new Map<string, string>();
  #names = new Map<string, string>();
  #sequence = 0;

  line(event: ReasonixEvent): Record<string, unknown> | null {
    const base = { schema_version: 1, sequence: ++this.#sequence, kind: event.type };
    switch (event.type) {
      case "reasoning":
      case "text":
        this.#sequence--;
        return null;
      case "tool_call":
        return { ...base, tool_id: this.#alias(this.#ids, event.callId, "tool"), ...this.#tool(event) };
      case "tool_result":
        return {
          ...base,
          tool_id: this.#alias(this.#ids, event.callId, "tool"),
          ...this.#tool(event),
          tool_ok: event.ok,
          tool_duration_ms: event.durationMs,
          ...(event.code ? { tool_error_code: event.code } : {}),
        };
      case "tool_progress":
        return {
          ...base,
          tool_id: this.#alias(this.#ids, event.callId, "tool"),
          ...(event.progress === undefined ? {} : { progress: event.progress }),
          ...(event.total === undefined ? {} : { total: event.total }),
        };
      case "usage":
        return {
          ...base,
          usage: {
            input_tokens: event.usage.promptTokens,
            output_tokens: event.usage.completionTokens,
            cache_hit_tokens: event.usage.cacheHitTokens,
            cache_miss_tokens: event.usage.cacheMissTokens,
          },
        };
      case "compaction":
        return { ...base, before_tokens: event.beforeTokens, after_tokens: event.afterTokens };
      case "retrying":
        return { ...base, attempt: event.attempt, max_attempts: event.maxAttempts, delay_ms: event.delayMs };
      case "turn_done":
        return { ...base, subtype: event.subtype, ...(event.error ? { error_code: event.error.code } : {}) };
      case "goal_updated":
        return { ...base, goal_status: event.goal.status, goal_turns: event.goal.turns };
      default:
        return base;
    }
  }

  #tool(event: { name: string; readOnly: boolean }) {
    return { tool_name: this.#alias(this.#names, event.name, "tool_name"), tool_read_only: event.readOnly };
  }

  #alias(map: Map<string, string>, key: string, prefix: string): string {
    let alias = map.get(key);
    if (!alias) {
      alias = `${prefix}_${map.size + 1}`;
      map.set(key, alias);
    }
    return alias;
  }
}
