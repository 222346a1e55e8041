/**
 * @module
 * Search over saved conversations: BM25 over the messages history_corpus.ts reads (built per call, no
 * index on disk), and a bounded window of messages around one hit. Of the running session only what a
 * compaction (or rewind) took out of the live context is searched: the rest the model still sees.
 * Everything returned is cut to size and has inline credentials redacted.
 */
import { bm25Search, bm25Terms } from "../lib/bm25.ts";
import { redactSecrets } from "../lib/redact.ts";
import {
  collectCorpus,
  type CorpusStats,
  type HistoryDirs,
  type HistoryDoc,
  type HistoryRole,
  type HistoryScope,
  sourceDocs,
} from "./history_corpus.ts";

export type { HistoryDirs, HistoryRole, HistoryScope } from "./history_corpus.ts";

export interface HistoryHit {
  session: string;
  seq: number;
  role: HistoryRole;
  at: string;
  score: number;
  snippet: string;
  /** The hit's workspace (global scope; null for an archived message). */
  workspace?: string | null;
  /** The session an archived message came from. */
  origin?: string;
  tool?: string;
}

export interface HistorySearchResult {
  query: string;
  /** The words searched for: the query without function words ("the", "how"). */
  terms: string[];
  scope: HistoryScope;
  hits: HistoryHit[];
  stats: CorpusStats;
}

export interface WindowMessage {
  seq: number;
  role: HistoryRole;
  at: string;
  text: string;
  tool?: string;
  /** The message the window was asked around. */
  anchor?: true;
}

export interface HistoryWindow {
  session: string;
  workspace: string | null;
  messages: WindowMessage[];
  /** Messages of the session before and after the window. */
  more: { before: number; after: number };
}

export const SEARCH_LIMIT = { default: 5, max: 20 };
export const WINDOW_LIMIT = { default: 3, max: 10 };
const SNIPPET_CHARS = 240;
const WINDOW_MESSAGE_CHARS = 1_500;
/** The whole window's text: a wide window gets less of each message. */
const WINDOW_TOTAL_CHARS = 12_000;
const INDEX_CHARS = { message: 8_000, tool: 2_000 };
const MAX_INDEXED = 1_000;
const NOTHING_READ: CorpusStats = { files: 0, bytes: 0, skipped: 0, capped: false };

export interface SearchRequest {
  query: string;
  scope: HistoryScope;
  limit?: number;
  roles?: readonly HistoryRole[];
  /** Extra redaction (known secret values); inline credential shapes are always redacted. */
  redact?: (text: string) => string;
}

export async function searchHistory(dirs: HistoryDirs, request: SearchRequest): Promise<HistorySearchResult> {
  const limit = clamp(request.limit ?? SEARCH_LIMIT.default, 1, SEARCH_LIMIT.max);
  const terms = bm25Terms(request.query);
  if (terms.length === 0) {
    // Only function words: nothing could match, so nothing is read.
    return { query: request.query, terms, scope: request.scope, hits: [], stats: NOTHING_READ };
  }
  const { docs, stats } = await collectCorpus(dirs, request.scope, { terms });
  const roles = request.roles?.length ? new Set(request.roles) : undefined;
  const searched = narrowed(roles ? docs.filter((doc) => roles.has(doc.role)) : docs, terms);
  const byId = new Map(searched.map((doc) => [doc.id, doc]));
  const redact = redactor(request.redact);
  const hits = bm25Search(
    searched.map((doc) => ({ id: doc.id, text: indexed(doc) })),
    request.query,
    limit,
  ).map(({ id, score, terms }): HistoryHit => {
    const doc = byId.get(id)!;
    return {
      session: doc.session,
      seq: doc.seq,
      role: doc.role,
      at: doc.at,
      score: Math.round(score * 100) / 100,
      snippet: snippet(redact(doc.text), terms),
      ...(request.scope === "global" ? { workspace: doc.workspace } : {}),
      ...(doc.origin ? { origin: doc.origin } : {}),
      ...(doc.tool ? { tool: doc.tool } : {}),
    };
  });
  return { query: request.query, terms, scope: request.scope, hits, stats };
}

export interface WindowRequest {
  scope: HistoryScope;
  session: string;
  seq: number;
  before?: number;
  after?: number;
  redact?: (text: string) => string;
}

/** The messages around `seq` (the first message at or after it); undefined when the session is not found. */
export async function historyWindow(
  dirs: HistoryDirs,
  request: WindowRequest,
): Promise<HistoryWindow | undefined> {
  const docs = await sourceDocs(dirs, request.scope, request.session);
  if (docs === undefined) return undefined;
  const before = clamp(request.before ?? WINDOW_LIMIT.default, 0, WINDOW_LIMIT.max);
  const after = clamp(request.after ?? WINDOW_LIMIT.default, 0, WINDOW_LIMIT.max);
  let anchor = docs.findIndex((doc) => doc.seq >= request.seq);
  if (anchor < 0) anchor = docs.length - 1;
  const start = Math.max(0, anchor - before);
  const end = Math.min(docs.length, anchor + after + 1);
  const redact = redactor(request.redact);
  const each = Math.min(WINDOW_MESSAGE_CHARS, Math.floor(WINDOW_TOTAL_CHARS / Math.max(1, end - start)));
  const messages = docs.slice(start, end).map((doc, index): WindowMessage => ({
    seq: doc.seq,
    role: doc.role,
    at: doc.at,
    text: clipped(redact(doc.text), each),
    ...(doc.tool ? { tool: doc.tool } : {}),
    ...(start + index === anchor ? { anchor: true as const } : {}),
  }));
  return {
    session: request.session,
    workspace: docs[0]?.workspace ?? null,
    messages,
    more: { before: start, after: docs.length - end },
  };
}

/** The text around the matched words, on one line: the window holding the most of them. */
export function snippet(text: string, terms: readonly string[]): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const lower = flat.toLowerCase();
  const lead = Math.floor(SNIPPET_CHARS / 3);
  let best = { start: 0, count: -1 };
  for (const term of terms) {
    const at = lower.indexOf(term);
    if (at < 0) continue;
    const start = Math.max(0, at - lead);
    const window = lower.slice(start, start + SNIPPET_CHARS);
    const count = terms.filter((other) => window.includes(other)).length;
    if (count > best.count || (count === best.count && start < best.start)) best = { start, count };
  }
  const end = Math.min(flat.length, best.start + SNIPPET_CHARS);
  return `${best.start > 0 ? "…" : ""}${flat.slice(best.start, end)}${end < flat.length ? "…" : ""}`;
}

/** What BM25 sees of a message: its tool's name and the head of its text (less of a tool's output). */
function indexed(doc: HistoryDoc): string {
  const max = doc.tool ? INDEX_CHARS.tool : INDEX_CHARS.message;
  const head = doc.text.length > max ? doc.text.slice(0, max) : doc.text;
  return doc.tool ? `${doc.tool} ${head}` : head;
}

/**
 * At most MAX_INDEXED messages go to BM25: when more hold a query word, those holding the most distinct
 * query words win, then the newest (the corpus is read newest file first).
 */
function narrowed(docs: HistoryDoc[], terms: readonly string[]): HistoryDoc[] {
  if (docs.length <= MAX_INDEXED) return docs;
  const covered = docs.map((doc, order) => {
    const lower = indexed(doc).toLowerCase();
    return { doc, order, count: terms.filter((term) => lower.includes(term)).length };
  });
  covered.sort((a, b) => b.count - a.count || a.order - b.order);
  return covered.slice(0, MAX_INDEXED).map((item) => item.doc);
}

function clipped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more chars]` : text;
}

function redactor(extra: ((text: string) => string) | undefined): (text: string) => string {
  return (text) => redactSecrets(extra ? extra(text) : text);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

export type { HistoryDoc };
