/**
 * @module
 * `reasonix cache explain`: for each request of a session, the cache hits the provider reported and,
 * when the prefix broke, the first part that differed from the previous request plus its answer.
 */
import type { Paths } from "../config/paths.ts";
import { ReasonixError } from "../lib/errors.ts";
import { loadConfig } from "../config/load.ts";
import { findSession, latestSession } from "../session/resume.ts";
import { loadSession } from "../session/store.ts";
import { type RecordedRequest, recordedRequests } from "../session/requests.ts";
import { comparePrefix, prefixParts, type PrefixVerdict } from "../session/prefix_diff.ts";

export interface CacheRow {
  request: number;
  model?: string;
  promptTokens: number;
  hitTokens: number;
  missTokens: number;
  hitRatio: number;
  verdict: PrefixVerdict | { kind: "first" };
  /** Why the prefix was reset on purpose (a compaction), when it was. */
  resetReason?: string;
  /** Minutes since the previous request, when past the provider's cache TTL (a miss is expected). */
  coldAfterMinutes?: number;
}

export interface CacheReport {
  sessionId: string;
  file: string;
  cacheTtlMinutes: number;
  rows: CacheRow[];
}

export async function explainSessionCache(
  options: { paths: Paths; workspace: string; session?: string },
): Promise<CacheReport> {
  const file = options.session
    ? await findSession(options.paths.sessionsDir, options.workspace, options.session)
    : await latestSession(options.paths.sessionsDir, options.workspace);
  if (!file) throw new ReasonixError("session.none", `No session to explain in ${options.workspace}`);
  const session = await loadSession(file);
  const config = await loadConfig({ workspace: options.workspace, paths: options.paths });
  const ttl = config.providers.find((p) => p.name === session.header.provider)?.cacheTtlMinutes ?? 24 * 60;
  const requests = recordedRequests(session.records);
  const rows = requests.map((request, i): CacheRow => {
    const usage = request.usage;
    const prompt = usage?.promptTokens ?? 0;
    const previous = requests[i - 1];
    const verdict = previous ? verdictFor(previous, request) : { kind: "first" as const };
    return {
      request: request.index,
      ...(request.model ? { model: request.model } : {}),
      promptTokens: prompt,
      hitTokens: usage?.cacheHitTokens ?? 0,
      missTokens: usage?.cacheMissTokens ?? 0,
      hitRatio: prompt > 0 ? (usage?.cacheHitTokens ?? 0) / prompt : 0,
      verdict,
      ...(request.reset !== undefined ? { resetReason: request.reset } : {}),
      ...coldness(previous?.at, request.at, ttl),
    };
  });
  return { sessionId: session.header.id, file, cacheTtlMinutes: ttl, rows };
}

function verdictFor(previous: RecordedRequest, request: RecordedRequest): PrefixVerdict {
  const expected = prefixParts([...previous.input, previous.output], previous.toolsJson);
  const actual = prefixParts(request.input, request.toolsJson);
  if (request.reset === undefined) return comparePrefix(expected, actual);
  let kept = 0;
  while (kept < expected.length && expected[kept]!.text === actual[kept]?.text) kept++;
  return { kind: "reset", keptParts: kept };
}

function coldness(before: string | undefined, after: string | undefined, ttl: number) {
  if (!before || !after) return {};
  const minutes = (Date.parse(after) - Date.parse(before)) / 60_000;
  return minutes > ttl ? { coldAfterMinutes: Math.round(minutes) } : {};
}

export function formatCacheReport(report: CacheReport): string {
  const lines = [`session ${report.sessionId} (${report.file})`];
  for (const row of report.rows) {
    const figures = `#${row.request}  prompt ${row.promptTokens}  hit ${row.hitTokens} ` +
      `(${(row.hitRatio * 100).toFixed(1)}%)  miss ${row.missTokens}`;
    const cold = row.coldAfterMinutes === undefined
      ? ""
      : `; ${row.coldAfterMinutes} min after the previous ` +
        `request, past the cache TTL of ${report.cacheTtlMinutes} min: a miss is expected`;
    lines.push(`${figures}  ${describe(row.verdict, row.resetReason)}${cold}`);
  }
  const total = report.rows.reduce((sum, r) => sum + r.promptTokens, 0);
  const hits = report.rows.reduce((sum, r) => sum + r.hitTokens, 0);
  lines.push(`total  prompt ${total}  hit ${hits} (${total > 0 ? (100 * hits / total).toFixed(1) : "0.0"}%)`);
  return lines.join("\n");
}

function describe(verdict: CacheRow["verdict"], resetReason: string | undefined): string {
  switch (verdict.kind) {
    case "first":
      return "first request: cold unless an earlier session shared the prefix";
    case "intact":
      return "prefix intact: the previous request and its answer were replayed byte for byte";
    case "reset":
      return `prefix reset after ${verdict.keptParts} parts (${resetReason ?? "compaction"})`;
    case "changed":
      return `miss began in ${verdict.label} at character ${verdict.offset}: ` +
        `${JSON.stringify(verdict.before)} → ${JSON.stringify(verdict.after)}`;
  }
}
