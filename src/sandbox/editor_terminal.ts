/**
 * @module
 * Foreground shell commands in the editor's own terminal (an ACP client's `terminal/*`), so the editor
 * shows them running. The editor runs what it is given on the user's machine with no isolation, so this
 * applies only where the session's commands run unsandboxed anyway (the `none` sandbox: `[sandbox]
 * bash = false`, or no OS sandbox and `require = false`). Under bubblewrap or seatbelt, and when commands
 * are refused, the sandbox is returned unchanged: a sandboxed command never moves to the editor.
 *
 * The command keeps the environment a local run gets (credentials scrubbed, the session's temp dir):
 * the editor's terminal starts from its own environment, so a short bash prologue unsets every variable
 * and function the session's environment does not name before running the command with `bash -c`.
 */
import type { RunOptions, RunResult, Sandbox } from "./sandbox.ts";

/** A command to start in the editor's terminal. */
export interface TerminalRequest {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** The editor keeps at most this many bytes of output (the tail). */
  outputByteLimit: number;
  /** The tool call the command belongs to: the editor shows the terminal in its card. */
  callId?: string;
}

/** A running command in the editor's terminal. */
export interface TerminalRun {
  waitForExit(): Promise<{ exitCode?: number | null; signal?: string | null }>;
  output(): Promise<{ output: string; truncated: boolean }>;
  kill(): Promise<void>;
  release(): Promise<void>;
}

/** The editor's terminal, as a face offers it. */
export interface EditorTerminal {
  create(request: TerminalRequest): Promise<TerminalRun>;
}

/** Names the variables the command keeps; the prologue reads it and unsets it too. */
export const KEEP_VARIABLE = "REASONIX_KEEP_ENV";

const PROLOGUE = [
  `keep=" $${KEEP_VARIABLE} "`,
  `for name in $(compgen -e); do case "$keep" in *" $name "*) ;; *) unset -v "$name" 2>/dev/null;; esac; done`,
  `for name in $(compgen -A function); do unset -f "$name"; done`,
  `unset -v ${KEEP_VARIABLE} keep name`,
  `exec bash -c "$1"`,
].join("; ");

/** `sandbox`, with its foreground shell commands in the editor's terminal when it is the `none` sandbox. */
export function withEditorTerminal(sandbox: Sandbox, terminal: EditorTerminal | undefined): Sandbox {
  if (terminal === undefined || sandbox.name !== "none") return sandbox;
  const wrapped: Sandbox = {
    name: sandbox.name,
    runShell: (command, options) => runInEditor(terminal, command, options),
    runArgv: (argv, options) => sandbox.runArgv(argv, options),
  };
  if (sandbox.spawnShell) wrapped.spawnShell = sandbox.spawnShell.bind(sandbox);
  return wrapped;
}

/** The request that runs `command` in the editor with exactly `env` (names limited to shell names). */
export function terminalRequest(command: string, options: RunOptions): TerminalRequest {
  const env = Object.fromEntries(
    Object.entries(options.env ?? {}).filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)),
  );
  return {
    command: "bash",
    args: ["-c", PROLOGUE, "reasonix", command],
    env: { ...env, [KEEP_VARIABLE]: Object.keys(env).join(" ") },
    cwd: options.cwd,
    outputByteLimit: options.maxOutputBytes,
    ...(options.callId ? { callId: options.callId } : {}),
  };
}

async function runInEditor(
  terminal: EditorTerminal,
  command: string,
  options: RunOptions,
): Promise<RunResult> {
  if (options.signal.aborted) return ended({ aborted: true });
  const run = await terminal.create(terminalRequest(command, options));
  try {
    const stop = Promise.withResolvers<"timeout" | "abort">();
    const timer = setTimeout(() => stop.resolve("timeout"), options.timeoutMs);
    const onAbort = () => stop.resolve("abort");
    options.signal.addEventListener("abort", onAbort, { once: true });
    // A cancel that landed while the editor was starting the terminal has already fired.
    if (options.signal.aborted) onAbort();
    const exited = run.waitForExit();
    const outcome = await Promise.race([exited, stop.promise]).finally(() => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
    });
    if (typeof outcome === "string") await run.kill().catch(() => {});
    const { output, truncated } = await run.output();
    const kept = clip(output, truncated, options.maxOutputBytes);
    if (typeof outcome === "string") {
      return { ...ended(outcome === "timeout" ? { timedOut: true } : { aborted: true }), ...kept };
    }
    return { ...ended({}), ...kept, exitCode: outcome.exitCode ?? null, signal: outcome.signal ?? null };
  } finally {
    await run.release().catch(() => {});
  }
}

function ended(how: { timedOut?: boolean; aborted?: boolean }): RunResult {
  return {
    output: "",
    exitCode: null,
    signal: null,
    timedOut: how.timedOut === true,
    aborted: how.aborted === true,
    droppedBytes: 0,
    lines: 0,
  };
}

/** The tail the editor kept (it drops from the start), within `max` bytes; says when output was lost. */
function clip(
  output: string,
  truncated: boolean,
  max: number,
): Pick<RunResult, "output" | "droppedBytes" | "lines"> {
  const bytes = new TextEncoder().encode(output);
  let start = Math.max(0, bytes.length - max);
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  const tail = new TextDecoder().decode(bytes.subarray(start));
  const lines = tail === "" ? 0 : tail.split("\n").length - (tail.endsWith("\n") ? 1 : 0);
  if (start === 0 && !truncated) return { output: tail, droppedBytes: 0, lines };
  return { output: `[... earlier output omitted ...]\n${tail}`, droppedBytes: Math.max(start, 1), lines };
}
