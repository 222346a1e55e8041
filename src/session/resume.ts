/**
 * @module
 * Finding sessions to resume: the newest one of a workspace (`-c`), or one named by path, id or id prefix.
 */
import { basename, join, resolve } from "node:path";
import { ReasonixError } from "../lib/errors.ts";
import { workspaceDir } from "./_paths.ts";
import type { SessionHeader } from "./store.ts";

export { workspaceDir };

export interface SessionSummary {
  id: string;
  file: string;
  workspace: string;
  createdAt: string;
  model: string;
  provider: string;
  /** Last modification of the file, ISO 8601. */
  modifiedAt: string;
  bytes: number;
}

const HEADER_READ_LIMIT = 64 * 1024;
const AMBIGUOUS_SHOWN = 5;

/** Newest first: by `createdAt` in the header, then file mtime, then id. Unreadable headers are skipped. */
export async function listSessions(sessionsDir: string, workspace: string): Promise<SessionSummary[]> {
  const dir = workspaceDir(sessionsDir, workspace);
  const summaries: SessionSummary[] = [];
  for (const file of await sessionFiles(dir)) {
    const summary = await summarize(file);
    if (summary !== undefined) summaries.push(summary);
  }
  return summaries.sort(compareNewestFirst);
}

export async function latestSession(sessionsDir: string, workspace: string): Promise<string | undefined> {
  return (await listSessions(sessionsDir, workspace))[0]?.file;
}

/**
 * `query` is a path (relative paths resolve against `workspace`), a full id, or a unique id prefix of a
 * session of this workspace.
 */
export async function findSession(sessionsDir: string, workspace: string, query: string): Promise<string> {
  const wanted = query.trim();
  if (wanted === "") throw new ReasonixError("session.not_found", "Cannot find session: the id is empty");
  if (looksLikePath(wanted)) return await existingFile(resolve(workspace, wanted));
  const ids = (await sessionFiles(workspaceDir(sessionsDir, workspace))).map((file) => ({
    file,
    id: idOf(file),
  }));
  const exact = ids.find((entry) => entry.id === wanted);
  if (exact !== undefined) return exact.file;
  const matches = ids.filter((entry) => entry.id.startsWith(wanted));
  if (matches.length === 1 && matches[0] !== undefined) return matches[0].file;
  if (matches.length === 0) {
    throw new ReasonixError(
      "session.not_found",
      `Cannot find session "${wanted}" for workspace "${resolve(workspace)}"`,
      { hint: "List the sessions of this workspace and pass a full id or a longer prefix" },
    );
  }
  const shown = matches.map((entry) => `"${entry.id}"`).sort().slice(0, AMBIGUOUS_SHOWN).join(", ");
  const more = matches.length > AMBIGUOUS_SHOWN ? ", ..." : "";
  throw new ReasonixError(
    "session.ambiguous",
    `Cannot pick session "${wanted}": ${matches.length} sessions match (${shown}${more})`,
    { hint: "Pass a longer id prefix" },
  );
}

function looksLikePath(query: string): boolean {
  return query.includes("/") || query.includes("\\") || query.endsWith(".jsonl");
}

async function existingFile(file: string): Promise<string> {
  try {
    const info = await Deno.stat(file);
    if (info.isFile) return file;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  throw new ReasonixError("session.not_found", `Cannot find session "${file}": not a file`);
}

async function sessionFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".jsonl")) files.push(join(dir, entry.name));
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return files.sort();
}

function idOf(file: string): string {
  return basename(file, ".jsonl");
}

async function summarize(file: string): Promise<SessionSummary | undefined> {
  const [header, info] = await Promise.all([readHeader(file), Deno.stat(file)]);
  return header === undefined ? undefined : summaryOf(header, file, info);
}

/** What a listing says of one session file, from its header and its stat. */
export function summaryOf(header: SessionHeader, file: string, info: Deno.FileInfo): SessionSummary {
  return {
    id: header.id,
    file,
    workspace: header.workspace,
    createdAt: header.createdAt,
    model: header.model,
    provider: header.provider,
    modifiedAt: (info.mtime ?? new Date(0)).toISOString(),
    bytes: info.size,
  };
}

/** Reads only the first line, so listing stays cheap for long sessions. */
async function readHeader(file: string): Promise<SessionHeader | undefined> {
  using handle = await Deno.open(file, { read: true });
  const buffer = new Uint8Array(HEADER_READ_LIMIT);
  let filled = 0;
  while (filled < buffer.length) {
    const read = await handle.read(buffer.subarray(filled));
    if (read === null) break;
    filled += read;
    if (buffer.subarray(0, filled).includes(0x0a)) break;
  }
  const newline = buffer.subarray(0, filled).indexOf(0x0a);
  if (newline === -1) return undefined;
  try {
    const value = JSON.parse(new TextDecoder().decode(buffer.subarray(0, newline)));
    const valid = value?.type === "session" && value.v === 1 && typeof value.id === "string" &&
      typeof value.createdAt === "string";
    return valid ? value as SessionHeader : undefined;
  } catch {
    return undefined;
  }
}

function compareNewestFirst(a: SessionSummary, b: SessionSummary): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  if (a.modifiedAt !== b.modifiedAt) return a.modifiedAt < b.modifiedAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
