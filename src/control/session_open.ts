/**
 * @module
 * A new session gets its byte-stable system prompt and its session-context message, stored as the
 * first records; a resumed one is replayed as stored, and what changed since it last ran becomes
 * notes for the tail of the next turn.
 */
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import type { ChatMessage } from "../provider/provider.ts";
import { buildContextMessage, localDate } from "../prompt/context.ts";
import { factChanges, type TurnFacts } from "../prompt/facts.ts";
import { buildSystemPrompt } from "../prompt/system.ts";
import { indexChangeNote } from "../tool/memory/index_text.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { type LoadedSession, type SessionRecord, SessionStore } from "../session/store.ts";
import { SessionLog } from "../session/log.ts";
import type { Workspace } from "../tool/tool.ts";
import { sessionInstructions } from "./instruction_reader.ts";
import { skillsChangeNote } from "./skill_setup.ts";

export const FACTS_EVENT = "facts";

export interface OpenSessionOptions {
  config: ResolvedConfig;
  workspace: Workspace;
  sandbox: Sandbox;
  model: string;
  provider: string;
  permissionMode: string;
  now: Date;
  resumed?: { store: SessionStore; session: LoadedSession };
  /** The directory instruction files are read down to (default the workspace root). */
  instructionTarget?: string;
  /** Call shapes of the proxied tools, named in the system prompt. */
  capabilities?: readonly string[];
  /** The remembered facts' index block, after the session context; null or absent: nothing remembered. */
  memoryIndex?: string | null;
  /** The skills catalog block, last in the session-context message; null or absent: no skills. */
  skillCatalog?: string | null;
}

export interface OpenedSession {
  log: SessionLog;
  /** Changes since the session last ran, for the tail of the next user message. */
  notes: string[];
  /** Facts to record once the notes have been delivered. */
  facts: TurnFacts;
  /** Instruction files that were refused, for the person starting the session. */
  warnings: string[];
}

export async function openSession(paths: Paths, options: OpenSessionOptions): Promise<OpenedSession> {
  const facts = await currentFacts(options);
  if (options.resumed) {
    const { store, session } = options.resumed;
    const before = lastFacts(session.records);
    const notes = before ? factChanges(before, facts) : [];
    const memory = memoryChange(session.records, options.memoryIndex ?? null);
    if (memory) notes.push(memory);
    const skills = skillsChangeNote(session.records, options.skillCatalog ?? null);
    if (skills) notes.push(skills);
    return { log: new SessionLog(store, session.records), notes, facts, warnings: [] };
  }
  const root = options.workspace.root;
  const instructions = await sessionInstructions(paths, options.config.sandbox.forbidRead, {
    root,
    target: options.instructionTarget ?? root,
  });
  const system = buildSystemPrompt({
    ...(options.config.agent.systemPrompt ? { custom: options.config.agent.systemPrompt } : {}),
    instructions: instructions.files,
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
  });
  const store = SessionStore.prepare(paths.sessionsDir, {
    workspace: options.workspace.root,
    model: options.model,
    provider: options.provider,
    now: options.now,
  });
  const messages: ChatMessage[] = [
    { role: "system", content: system },
    {
      role: "user",
      content: withBlock(withBlock(buildContextMessage(facts), options.memoryIndex), options.skillCatalog),
    },
  ];
  const log = new SessionLog(store, store.staged);
  await log.stage(
    ...messages.map((message) => ({ type: "message" as const, message })),
    { type: "event", name: FACTS_EVENT, data: facts, at: options.now.toISOString() },
  );
  return { log, notes: [], facts, warnings: instructions.warnings };
}

async function currentFacts(options: OpenSessionOptions): Promise<TurnFacts> {
  const branch = await gitBranch(options.sandbox, options.workspace.root);
  return {
    workspace: options.workspace.root,
    os: Deno.build.os,
    arch: Deno.build.arch,
    shell: "bash",
    date: localDate(options.now),
    ...(branch ? { gitBranch: branch } : {}),
    extraWritable: options.workspace.extraWritable,
    model: options.model,
    permissionMode: options.permissionMode,
  };
}

function lastFacts(records: readonly SessionRecord[]): TurnFacts | undefined {
  const event = records.findLast((r) => r.type === "event" && r.name === FACTS_EVENT);
  return event?.type === "event" ? event.data as TurnFacts : undefined;
}

async function gitBranch(sandbox: Sandbox, cwd: string): Promise<string | undefined> {
  try {
    const run = await sandbox.runArgv(["git", "rev-parse", "--abbrev-ref", "HEAD"], {
      cwd,
      signal: AbortSignal.timeout(5000),
      timeoutMs: 5000,
      maxOutputBytes: 4096,
    });
    const branch = run.output.trim();
    return run.exitCode === 0 && branch ? branch : undefined;
  } catch {
    return undefined;
  }
}

function memoryChange(records: readonly SessionRecord[], index: string | null): string | null {
  const context = records.find((r) => r.type === "message" && r.message.role === "user");
  const text = context?.type === "message" ? context.message.content : undefined;
  // The skills block follows the memory index: it is not part of the index.
  return typeof text === "string" ? indexChangeNote(text.replace(/\n\n<skills>[\s\S]*$/, ""), index) : null;
}

/** A session without memories or skills keeps exactly the context message it always had. */
function withBlock(context: string, block: string | null | undefined): string {
  return block ? `${context}\n\n${block}` : context;
}
