/**
 * @module
 * What the `history` search reads: the messages of saved sessions (one workspace's, or every
 * workspace's) and, for the global scope, of the compaction archives, newest files first and bounded
 * in files and bytes. Files are read leniently: a damaged line is skipped, never fatal.
 */
import { basename, join, resolve } from "node:path";
import type { ChatMessage } from "../provider/provider.ts";
import { workspaceDir } from "./_paths.ts";

export type HistoryScope = "project" | "global";
export type HistoryRole = "user" | "assistant" | "tool";

/** Where the history lives: `<state>/sessions` and `<state>/archive`, and the workspace of the project scope. */
export interface HistoryDirs {
  sessionsDir: string;
  archiveDir: string;
  workspace: string;
  /**
   * The running session: a search leaves out its messages since its last compaction (or rewind), which
   * the model still has in front of it, and finds the ones before.
   */
  current?: string;
}

/** One searchable message. `session` is a session id, or `archive:<name>` for a compaction archive. */
export interface HistoryDoc {
  id: number;
  session: string;
  /** The record's seq in its session file, or the line number in an archive. */
  seq: number;
  role: HistoryRole;
  /** When it was written, as near as the file tells (the last timestamp before it). */
  at: string;
  workspace: string | null;
  /** The session an archived message came from. */
  origin?: string;
  tool?: string;
  text: string;
}

export interface CorpusStats {
  files: number;
  bytes: number;
  /** Files left out: over the per-file cap, unreadable, or past the budget. */
  skipped: number;
  /** The file or byte budget ran out before every file was read. */
  capped: boolean;
}

export const HISTORY_LIMITS = {
  maxFiles: 400,
  maxBytes: 64 * 1024 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
  /** Stored per message for snippets and windows; the rest of a huge tool output is not searched. */
  maxDocChars: 20_000,
};

export const SESSION_ID = /^\d{8}-\d{6}-[0-9a-f]{8}$/;
export const ARCHIVE_PREFIX = "archive:";
const ARCHIVE_NAME = /^[0-9TZ-]+$/;
/** How the store writes a message record: the type first, its own seq last (log.ts). */
const MESSAGE_LINE = '{"type":"message"';
const STORED_SEQ = /"seq":(\d+)\}\s*$/;
/** Records that replace the replayed history (store.ts `resetsHistory`). */
const RESETS = new Set(["compaction", "rewind", "switch"]);

interface Candidate {
  file: string;
  kind: "session" | "archive";
  size: number;
  mtime: number;
}

/**
 * The messages of the scope's newest files, within `limits`. With `terms` (lower-cased words), only the
 * messages whose text holds one of them: the others are not even parsed.
 */
export async function collectCorpus(
  dirs: HistoryDirs,
  scope: HistoryScope,
  options: { limits?: typeof HISTORY_LIMITS; terms?: readonly string[] } = {},
): Promise<{ docs: HistoryDoc[]; stats: CorpusStats }> {
  const limits = options.limits ?? HISTORY_LIMITS;
  const reading: Reading = {
    maxChars: limits.maxDocChars,
    ...matching(options.terms),
    ...(dirs.current ? { current: dirs.current } : {}),
  };
  const candidates = scope === "project"
    ? jsonlFiles(workspaceDir(dirs.sessionsDir, dirs.workspace), "session")
    : [
      ...subdirs(dirs.sessionsDir).flatMap((dir) => jsonlFiles(dir, "session")),
      ...jsonlFiles(dirs.archiveDir, "archive"),
    ];
  candidates.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1));
  const docs: HistoryDoc[] = [];
  const stats: CorpusStats = { files: 0, bytes: 0, skipped: 0, capped: false };
  const archived: Candidate[] = [];
  for (const candidate of candidates) {
    if (stats.files >= limits.maxFiles || stats.bytes + candidate.size > limits.maxBytes) {
      stats.capped = true;
      stats.skipped++;
      continue;
    }
    if (candidate.size > limits.maxFileBytes) {
      stats.skipped++;
      continue;
    }
    if (candidate.kind === "archive") {
      archived.push(candidate);
    } else {
      const read = await readFileDocs(candidate, docs.length, reading);
      if (read === undefined) {
        stats.skipped++;
        continue;
      }
      const own = scope === "global" || read.workspace === resolve(dirs.workspace);
      if (own) docs.push(...read.docs);
    }
    stats.files++;
    stats.bytes += candidate.size;
  }
  await addArchives(docs, archived, reading);
  return { docs, stats };
}

/** The messages of one session (by id) or archive (`archive:<name>`) of the scope; undefined: none such. */
export async function sourceDocs(
  dirs: HistoryDirs,
  scope: HistoryScope,
  session: string,
): Promise<HistoryDoc[] | undefined> {
  const file = sourceFile(dirs, scope, session);
  if (file === undefined) return undefined;
  const info = statOf(file);
  if (info === undefined || info.size > HISTORY_LIMITS.maxFileBytes) return undefined;
  const candidate: Candidate = {
    file,
    kind: file.startsWith(dirs.archiveDir) ? "archive" : "session",
    ...info,
  };
  const read = await readFileDocs(candidate, 0, { maxChars: HISTORY_LIMITS.maxDocChars });
  if (read === undefined) return undefined;
  if (scope === "project" && read.workspace !== resolve(dirs.workspace)) return undefined;
  return read.docs;
}

/** Only well-formed names reach the file system: an id or archive name, never a path. */
function sourceFile(dirs: HistoryDirs, scope: HistoryScope, session: string): string | undefined {
  if (session.startsWith(ARCHIVE_PREFIX)) {
    const name = session.slice(ARCHIVE_PREFIX.length);
    return scope === "global" && ARCHIVE_NAME.test(name) ? join(dirs.archiveDir, `${name}.jsonl`) : undefined;
  }
  if (!SESSION_ID.test(session)) return undefined;
  const dirsToTry = scope === "project"
    ? [workspaceDir(dirs.sessionsDir, dirs.workspace)]
    : subdirs(dirs.sessionsDir);
  return dirsToTry.map((dir) => join(dir, `${session}.jsonl`)).find((file) => statOf(file) !== undefined);
}

interface Reading {
  maxChars: number;
  /** The session whose live messages (after its last history reset) are left out. */
  current?: string;
  /** Any of the terms, ignoring case. */
  matcher?: RegExp;
}

function matching(terms: readonly string[] | undefined): { matcher?: RegExp } {
  if (terms === undefined || terms.length === 0) return {};
  const escaped = terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return { matcher: new RegExp(escaped.join("|"), "iu") };
}

/** A message line none of the terms occur in (letters and digits are never escaped in JSON). */
function passedOver(line: string, reading: Reading, prefix: string): boolean {
  if (reading.matcher === undefined || !line.startsWith(prefix)) return false;
  return !reading.matcher.test(line);
}

async function readFileDocs(
  candidate: Candidate,
  firstId: number,
  reading: Reading,
): Promise<{ docs: HistoryDoc[]; workspace: string | null } | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(candidate.file);
  } catch {
    return undefined;
  }
  return candidate.kind === "archive"
    ? { docs: archiveDocs(candidate.file, text, firstId, reading), workspace: null }
    : sessionDocs(text, firstId, reading);
}

/** A session file's conversation messages (not the system prompt, the session context or replacements). */
function sessionDocs(text: string, firstId: number, reading: Reading) {
  const docs: HistoryDoc[] = [];
  let session = "";
  let workspace: string | null = null;
  let at = "";
  let seq = 0;
  let reset = 0;
  for (const line of text.split("\n")) {
    if (passedOver(line, reading, MESSAGE_LINE)) {
      const stored = Number(STORED_SEQ.exec(line)?.[1] ?? 0);
      seq = stored > seq ? stored : seq + 1;
      continue;
    }
    const record = parseLine(line);
    if (record === undefined) continue;
    seq = typeof record.seq === "number" && record.seq > seq ? record.seq : seq + 1;
    if (typeof record.at === "string") at = record.at;
    if (RESETS.has(String(record.type))) reset = seq;
    if (record.type === "session") {
      session = String(record.id ?? "");
      workspace = typeof record.workspace === "string" ? resolve(record.workspace) : null;
      at = String(record.createdAt ?? "");
      continue;
    }
    if (record.type !== "message" || !session) continue;
    const doc = messageDoc(record.message as ChatMessage, reading.maxChars);
    if (doc) docs.push({ id: firstId + docs.length, session, seq, at, workspace, ...doc });
  }
  if (!SESSION_ID.test(session)) return undefined;
  if (session !== reading.current) return { docs, workspace };
  const gone = docs.filter((doc) => doc.seq < reset).map((doc, index) => ({ ...doc, id: firstId + index }));
  return { docs: gone, workspace };
}

function archiveDocs(file: string, text: string, firstId: number, reading: Reading): HistoryDoc[] {
  const session = `${ARCHIVE_PREFIX}${basename(file, ".jsonl")}`;
  const docs: HistoryDoc[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (passedOver(line, reading, "{")) continue;
    const entry = parseLine(line);
    if (entry === undefined || typeof entry.message !== "object") continue;
    const doc = messageDoc(entry.message as ChatMessage, reading.maxChars);
    if (doc === undefined) continue;
    const origin = typeof entry.session === "string" ? { origin: entry.session } : {};
    const at = typeof entry.at === "string" ? entry.at : "";
    docs.push({ id: firstId + docs.length, session, seq: index + 1, at, workspace: null, ...origin, ...doc });
  }
  return docs;
}

/** Archived messages the read session files already hold are left out (the session copy is the hit). */
async function addArchives(docs: HistoryDoc[], archives: readonly Candidate[], reading: Reading) {
  const seen = new Set(docs.map((doc) => `${doc.session}\0${doc.role}\0${doc.text}`));
  for (const archive of archives) {
    const read = await readFileDocs(archive, docs.length, reading);
    for (const doc of read?.docs ?? []) {
      if (seen.has(`${doc.origin}\0${doc.role}\0${doc.text}`)) continue;
      docs.push({ ...doc, id: docs.length });
    }
  }
}

function messageDoc(
  message: ChatMessage | undefined,
  maxChars: number,
): Pick<HistoryDoc, "role" | "text" | "tool"> | undefined {
  if (!message || typeof message !== "object") return undefined;
  const clip = (value: string) => value.length > maxChars ? value.slice(0, maxChars) : value;
  if (message.role === "user") {
    const content = String(message.content ?? "");
    if (content.startsWith("<session-context")) return undefined;
    return { role: "user", text: clip(content) };
  }
  if (message.role === "tool") {
    return { role: "tool", tool: String(message.name ?? ""), text: clip(String(message.content ?? "")) };
  }
  if (message.role !== "assistant") return undefined;
  const calls = (message.tool_calls ?? []).map((call) =>
    `${call.function?.name}(${call.function?.arguments})`
  );
  const text = [message.content ?? "", ...calls].filter((part) => part !== "").join("\n");
  return text === "" ? undefined : { role: "assistant", text: clip(text) };
}

function parseLine(line: string): Record<string, unknown> | undefined {
  if (line.trim() === "") return undefined;
  try {
    const value = JSON.parse(line);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function jsonlFiles(dir: string, kind: Candidate["kind"]): Candidate[] {
  const files: Candidate[] = [];
  for (const name of entries(dir, (entry) => entry.isFile && entry.name.endsWith(".jsonl"))) {
    const file = join(dir, name);
    const info = statOf(file);
    if (info) files.push({ file, kind, ...info });
  }
  return files;
}

function subdirs(dir: string): string[] {
  return entries(dir, (entry) => entry.isDirectory).map((name) => join(dir, name));
}

function entries(dir: string, keep: (entry: Deno.DirEntry) => boolean): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter(keep).map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

function statOf(file: string): { size: number; mtime: number } | undefined {
  try {
    const info = Deno.lstatSync(file);
    return info.isFile ? { size: info.size, mtime: info.mtime?.getTime() ?? 0 } : undefined;
  } catch {
    return undefined;
  }
}
