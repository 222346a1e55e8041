/**
 * @module
 * `reasonix session list|show|status`: a workspace's sessions, one transcript, one session's state.
 * What leaves here is redacted: values of secret-looking variables (environment and the Reasonix
 * `.env`) and inline credentials (API keys, bearer tokens, private keys, `user:password@` URLs).
 */
import { MIN_SECRET_LENGTH, redactSecrets } from "../lib/redact.ts";
import { summaryOf } from "../session/resume.ts";
import { join } from "node:path";
import { parseDotenv } from "../config/dotenv.ts";
import { processEnv } from "../config/paths.ts";
import { ReasonixError } from "../lib/errors.ts";
import { findSessionQuery } from "../session/find.ts";
import {
  latestWithTurns,
  listWorkspaceSessions,
  type SessionListing,
  summariseRecords,
} from "../session/listing.ts";
import { type LockOwner, lockPath, readOwner } from "../session/lock.ts";
import { loadSession } from "../session/store.ts";
import { CLOSING_NOTE } from "../session/repair.ts";
import type { AdminContext } from "./admin.ts";

export interface TranscriptEntry {
  role: "user" | "assistant" | "tool";
  text: string;
  reasoning?: string;
  toolCalls?: { name: string; arguments: string }[];
  tool?: string;
}

export interface SessionStatus extends Omit<SessionListing, "file"> {
  file: string;
  /** The process writing the session now, when one is. */
  inUseBy: LockOwner | null;
  lastTurn: "answered" | "interrupted" | "none";
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|PRIVATE|DSN|WEBHOOK/i;

export async function sessionList(ctx: AdminContext): Promise<SessionListing[]> {
  return await listWorkspaceSessions(ctx.paths.sessionsDir, ctx.workspace);
}

/** `latest` (the session `-c` would continue), a path, an id or prefix, or a title substring. */
export async function sessionFile(ctx: AdminContext, query: string): Promise<string> {
  if (query !== "latest") return await findSessionQuery(ctx.paths.sessionsDir, ctx.workspace, query);
  const latest = await latestWithTurns(ctx.paths.sessionsDir, ctx.workspace);
  if (latest) return latest;
  throw new ReasonixError("session.none", `No session with a turn in ${ctx.workspace}`);
}

export async function sessionTranscript(
  ctx: AdminContext,
  query: string,
  options: { reasoning: boolean },
): Promise<{ id: string; entries: TranscriptEntry[] }> {
  const session = await loadSession(await sessionFile(ctx, query));
  const redact = await redactor(ctx);
  // The system prompt and the session-context message are setup, not conversation.
  const entries = session.messages.slice(2).flatMap((message): TranscriptEntry[] => {
    if (message.role === "system") return [];
    if (message.role === "tool") return [{ role: "tool", tool: message.name, text: redact(message.content) }];
    if (message.role === "user") return [{ role: "user", text: redact(message.content) }];
    const entry: TranscriptEntry = { role: "assistant", text: redact(message.content ?? "") };
    if (options.reasoning && message.reasoning_content) entry.reasoning = redact(message.reasoning_content);
    if (message.tool_calls?.length) {
      entry.toolCalls = message.tool_calls.map((call) => ({
        name: call.function.name,
        arguments: redact(call.function.arguments),
      }));
    }
    return [entry];
  });
  return { id: session.header.id, entries };
}

export async function sessionStatus(ctx: AdminContext, query: string): Promise<SessionStatus> {
  const file = await sessionFile(ctx, query);
  const [session, info] = await Promise.all([loadSession(file), Deno.stat(file)]);
  const { header } = session;
  const last = session.messages.at(-1);
  const interrupted = last?.role === "assistant" &&
    CLOSING_NOTE.test(last.content ?? "");
  return {
    ...summaryOf(header, file, info),
    ...summariseRecords(session.records),
    inUseBy: await heldBy(file),
    lastTurn: session.messages.length <= 2
      ? "none"
      : interrupted || last?.role !== "assistant"
      ? "interrupted"
      : "answered",
  };
}

/** The owner named in the lock file, if a live process still holds the lock. */
async function heldBy(file: string): Promise<LockOwner | null> {
  const path = lockPath(file);
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(path, { read: true, write: true });
  } catch {
    return null;
  }
  try {
    if (await handle.tryLock(true)) return null;
    return await readOwner(path) ?? null;
  } catch {
    return null;
  } finally {
    handle.close();
  }
}

/** Known secret values (secret-named variables of the environment and the Reasonix `.env`) and inline shapes. */
export async function redactor(ctx: AdminContext): Promise<(text: string) => string> {
  const values = new Set<string>();
  const consider = (name: string, value: string) => {
    if (SECRET_NAME.test(name) && value.length >= MIN_SECRET_LENGTH) values.add(value);
  };
  for (const [name, value] of Object.entries(processEnv())) consider(name, value);
  try {
    const dotenv = parseDotenv(await Deno.readTextFile(join(ctx.paths.home, ".env")));
    for (const [name, value] of dotenv) consider(name, value);
  } catch {
    // No keys file.
  }
  return (text) => redactSecrets(text, values);
}
