/**
 * @module
 * Tools as data: a name, a model-facing description, a zod schema, and `execute`. The dispatcher
 * validates, gates, truncates and times every call; a tool only does its one job.
 */
import type { z } from "zod";
import { ReasonixError } from "../lib/errors.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { FsAgent } from "../sandbox/fs_agent.ts";
import type { JobTable } from "./jobs.ts";
import type { MemoryAccess } from "./memory/access.ts";
import type { Consent } from "./consent.ts";
import type { Asker } from "./question.ts";
import type { SessionToolState, TodoItem } from "./session_state.ts";
import type { PlanReviewer } from "./plan.ts";
import type { ProfileSource, SubagentPort } from "./subagent_port.ts";
import type { EditorFiles } from "./editor_files.ts";

export interface Workspace {
  /** Realpath of the workspace root. */
  root: string;
  /** Realpaths of extra writable roots (`--add-dir`, `[sandbox] allow_write`). */
  extraWritable: readonly string[];
  /**
   * Absolute paths that look missing to every tool: `[sandbox] forbid_read`, Reasonix's home and state,
   * and credential stores (src/config/protected_paths.ts).
   */
  forbidRead: readonly string[];
  /** Absolute paths under the writable roots that tools must not change (`.git/hooks`, `.git/config`). */
  readOnly?: readonly string[];
  /**
   * A writer subagent's `write_paths` claim (realpaths): the only places its file tools may change.
   * Absent: the writable roots above.
   */
  writeClaim?: readonly string[];
}

export interface FileChange {
  path: string;
  kind: "create" | "modify" | "delete";
  oldText: string | null;
  newText: string | null;
}

/** A file a planned change replaces: its bytes when planned and what the change writes (null: absent). */
export interface FileTouch {
  abs: string;
  shown: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
  /** The change acts on the disk whatever an editor holds (a move): `before` was read there. */
  onDisk?: boolean;
}

/** A change computed once: the approval card shows `change`, and `apply` writes exactly those bytes. */
export interface PlannedChange {
  change: FileChange;
  touches: readonly FileTouch[];
  apply(): Promise<ToolResult>;
}

/** Told about every planned write just before it lands (checkpoints record first-touch content). */
export interface WriteObserver {
  beforeWrite(touches: readonly FileTouch[]): Promise<void>;
}

/** How far a running call is: a count (of `total`, when known) and/or a line of text. */
export interface ToolProgress {
  progress?: number;
  total?: number;
  message?: string;
}

export interface ToolContext {
  signal: AbortSignal;
  workspace: Workspace;
  sandbox: Sandbox;
  /** Told what a running call has done so far (an MCP server's `notifications/progress`); the faces show it. */
  onProgress?: (update: ToolProgress) => void;
  /** Tool limits from `[tools]` config. */
  limits: ToolLimits;
  /** Per-session state the planning tools read and write (todos, goal); absent in isolated tests. */
  state?: SessionToolState;
  /**
   * Whether tools may reach the network (`[sandbox] network`), and the private hosts web_fetch may reach
   * (`[tools] web_fetch_allow_private`, user config only).
   */
  network?: { allowed: boolean; allowPrivate?: readonly string[] };
  /**
   * Asks the permission policy, without asking a person, whether this tool may also run with `args`
   * (web_fetch: a redirect to another host); resolves to null when allowed, else the reason.
   */
  permits?: (args: unknown) => Promise<string | null>;
  /** The session's background jobs (`bash` with `run_in_background`); absent where jobs cannot run. */
  jobs?: JobTable;
  /** The session's anchored file I/O (src/sandbox/fs_agent.ts); absent: the slower bash helper. */
  files?: FsAgent;
  /** The editor's file access (an ACP client's `fs/*`, editor_files.ts); absent: the disk. */
  editor?: EditorFiles;
  /** Puts the `ask` tool's questions to a person; absent where nobody can answer. */
  questions?: Asker;
  /** Puts a `submit_plan` plan to a person (plan mode); absent where nobody can review one. */
  plans?: PlanReviewer;
  /** The session's checkpoints; absent where no turn is recorded. */
  writes?: WriteObserver;
  /** The id of the call being run (set by the dispatcher), for a tool that puts its own card to a person. */
  callId?: string;
  /** Remembered facts (`remember`, `forget`, `memory`); absent where there is no memory (subagents). */
  memory?: MemoryAccess;
  /** Runs child agents (`task`, `fleet`, skills with `runAs: subagent`); absent where none may start. */
  subagents?: SubagentPort;
  /** Subagent profiles by name (skills); absent: `task` accepts no `profile`. */
  profiles?: ProfileSource;
  /** The answers of this conversation's subagents, by ref (`read_subagent_result`). */
  subagentResults?: SubagentResults;
  /** A person's one-off approval asked whatever the mode (a global `history` search); absent: refused. */
  consent?: Consent;
}

export interface SubagentResults {
  /** The whole answer; undefined for a ref outside this conversation's lineage. */
  read(ref: string): Promise<string | undefined>;
  /** Keeps what `run` resolves to under a new ref, returned at once (`run_in_background`). */
  background(run: Promise<string>): string;
}

export interface ToolLimits {
  bashTimeoutSeconds: number;
  outputBudgetBytes: number;
  /** Wall-clock budget of one grep call; absent: grep's default (GREP_TIMEOUT_SECONDS). */
  grepTimeoutSeconds?: number;
}

/**
 * What a call did, as data beside the model-facing text: faces render this and never parse the output.
 * It is stored in the session beside the tool message and never sent to the model.
 */
export type ToolData =
  | { kind: "todo"; items: TodoItem[] }
  | { kind: "diff"; path: string; before: string | null; after: string | null }
  | { kind: "move"; from: string; to: string }
  | {
    kind: "bash";
    exitCode: number | null;
    durationMs: number;
    timedOut: boolean;
    signal: string | null;
    /** Lines the command printed, before the output was cut to its head and tail. */
    lines?: number;
    /** It failed on a write the OS sandbox refused (a read-only mount, a seatbelt denial). */
    sandboxDenied?: boolean;
  }
  | { kind: "job"; jobId: string; status: string; exitCode: number | null }
  | { kind: "read"; path: string; lines: number; offset: number; totalLines: number | null }
  | { kind: "list"; path: string; entries: number }
  /** grep (matches counted up to its cap) and glob (matches = files). */
  | {
    kind: "search";
    pattern: string;
    matches: number;
    files: number;
    /** grep: files not searched (not regular, or over the size cap); absent when none. */
    skipped?: number;
    /** grep: the search hit its time limit, so the matches may be incomplete; absent when it did not. */
    timedOut?: boolean;
  }
  | { kind: "symbols"; matches: number }
  /** `url`: the final URL after redirects; `bytes`: the body as read. */
  | { kind: "fetch"; url: string; status: number; bytes: number; contentType: string }
  /** `answers`: question header → the answer as the model reads it (empty unless answered). */
  | {
    kind: "answers";
    outcome: "answered" | "declined" | "unanswered" | "earlier";
    answers: Record<string, string>;
  }
  | { kind: "goal"; id: string; objective: string; status: string };

export interface ToolResult {
  output: string;
  data?: ToolData;
  /** Set when the tool already trimmed its output and says how to get the rest. */
  truncated?: boolean;
}

export interface ToolSpec<Args = unknown> {
  name: string;
  description: string;
  parameters: z.ZodType<Args>;
  readOnly: boolean;
  /**
   * The parameters' JSON Schema as given (an MCP server's), sent instead of converting `parameters`;
   * `parameters` then validates against it.
   */
  inputSchema?: Record<string, unknown>;
  /** The tool may destroy data (MCP `destructiveHint`): approval cards say so. */
  destructive?: boolean;
  /** A permission rule naming this group covers the tool (`mcp__<server>` for a server's tools). */
  ruleGroup?: string;
  /** Told to the model when the dispatcher cuts this tool's output (e.g. "use offset/limit"). */
  truncationHint?: string;
  preview?: (args: Args, ctx: ToolContext) => Promise<FileChange | null>;
  /** A previewing writer's one computation: the dispatcher approves and applies this same plan. */
  plan?: (args: Args, ctx: ToolContext) => Promise<PlannedChange>;
  execute: (args: Args, ctx: ToolContext) => Promise<ToolResult>;
}

/** A failure the model can act on: it becomes the tool result, never a crash. */
export class ToolError extends ReasonixError {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = "ToolError";
  }
}

export function defineTool<S extends z.ZodType>(
  spec: Omit<ToolSpec<z.infer<S>>, "parameters"> & { parameters: S },
): ToolSpec<z.infer<S>> {
  return spec as ToolSpec<z.infer<S>>;
}
