/**
 * @module
 * macOS: the sandbox policy as a Seatbelt (SBPL) profile for `sandbox-exec -p`. Writes are denied
 * except to the writable roots, the temp dir and a few devices, and again to the read-only paths inside
 * those roots; hidden paths can be neither read nor written, nor moved away with their parents; the
 * network is denied unless allowed. In SBPL the last matching rule wins, so the denials come last.
 */
import { dirname } from "node:path";
import { isUnder } from "./_masks.ts";
import { DirectSandbox, spawnArgv } from "./none.ts";
import type { SandboxPolicy } from "./policy.ts";
import type { RunOptions, RunResult, Sandbox, SpawnedProcess, SpawnOptions } from "./sandbox.ts";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

const DEVICES = [
  '(literal "/dev/null")',
  '(literal "/dev/zero")',
  '(regex #"^/dev/tty")',
  '(regex #"^/dev/fd/")',
];

export function seatbeltProfile(policy: SandboxPolicy): string {
  const writable = [...policy.writable, policy.tempDir.path].map((path) => `(subpath ${sbplString(path)})`);
  const lines = [
    "(version 1)",
    "(allow default)",
    "(deny file-write*)",
    `(allow file-write*\n  ${[...writable, ...DEVICES].join("\n  ")})`,
  ];
  const readOnly = policy.readOnly ?? [];
  if (readOnly.length > 0) {
    lines.push(
      `(deny file-write*\n  ${readOnly.map((path) => `(subpath ${sbplString(path)})`).join("\n  ")})`,
    );
  }
  if (policy.hidden.length > 0) {
    const hidden = policy.hidden.map((path) => `(subpath ${sbplString(path)})`);
    lines.push(`(deny file-read* file-write*\n  ${hidden.join("\n  ")})`);
  }
  const pinned = pinnedPaths(policy);
  if (pinned.length > 0) {
    // A rename needs file-write-unlink on its source: the protected path and its parents stay put.
    lines.push(
      `(deny file-write-unlink\n  ${pinned.map((path) => `(literal ${sbplString(path)})`).join("\n  ")})`,
    );
  }
  if (!policy.network) lines.push("(deny network*)");
  return lines.join("\n") + "\n";
}

/** Hidden and read-only paths inside writable roots, with their parents up to the root. */
function pinnedPaths(policy: SandboxPolicy): string[] {
  const pinned = new Set<string>();
  for (const path of [...policy.hidden, ...(policy.readOnly ?? [])]) {
    const root = policy.writable.find((candidate) => isUnder(path, candidate) && path !== candidate);
    if (!root) continue;
    for (let entry = path; entry !== root && isUnder(entry, root); entry = dirname(entry)) pinned.add(entry);
  }
  return [...pinned];
}

/** A string literal in SBPL: backslashes and double quotes escaped. */
export function sbplString(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

export class SeatbeltSandbox implements Sandbox {
  readonly name = "seatbelt";
  readonly #policy: SandboxPolicy;
  readonly #direct = new DirectSandbox();

  constructor(policy: SandboxPolicy) {
    this.#policy = policy;
  }

  runShell(command: string, options: RunOptions): Promise<RunResult> {
    return this.runArgv(["bash", "-c", command], options);
  }

  runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    return this.#direct.runArgv([SANDBOX_EXEC, "-p", seatbeltProfile(this.#policy), ...argv], options);
  }

  spawnShell(command: string, options: SpawnOptions): SpawnedProcess {
    return spawnArgv([SANDBOX_EXEC, "-p", seatbeltProfile(this.#policy), "bash", "-c", command], options);
  }
}
