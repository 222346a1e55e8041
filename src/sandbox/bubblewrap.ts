/**
 * @module
 * Linux: every child runs under bubblewrap. The root is read-only, the workspace and extra roots are
 * writable, the session temp dir is mounted at /tmp, hidden paths are masked, the network is cut unless
 * allowed, and the child gets fresh PID/IPC/UTS namespaces and its own session. A symlink inside the
 * workspace that points elsewhere lands on the read-only root (or on the private /tmp).
 */
import { DirectSandbox, spawnArgv } from "./none.ts";
import type { SandboxPolicy } from "./policy.ts";
import type { RunOptions, RunResult, Sandbox, SpawnedProcess, SpawnOptions } from "./sandbox.ts";
import { isUnder, type MaskKind, maskKinds } from "./_masks.ts";

export class BubblewrapSandbox implements Sandbox {
  readonly name = "bubblewrap";
  readonly #policy: SandboxPolicy;
  readonly #bwrap: string;
  readonly #direct = new DirectSandbox();

  constructor(policy: SandboxPolicy, bwrap = "bwrap") {
    this.#policy = policy;
    this.#bwrap = bwrap;
  }

  runShell(command: string, options: RunOptions): Promise<RunResult> {
    return this.runArgv(["bash", "-c", command], options);
  }

  async runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    if (argv.length === 0 || argv[0] === "") {
      throw new TypeError("Cannot run a command: the argument vector is empty");
    }
    const args = bwrapArgs(this.#policy, { cwd: options.cwd, masks: maskKinds(this.#policy.hidden) });
    return await this.#direct.runArgv([this.#bwrap, ...args, ...argv], options);
  }

  spawnShell(command: string, options: SpawnOptions): SpawnedProcess {
    const args = bwrapArgs(this.#policy, { cwd: options.cwd, masks: maskKinds(this.#policy.hidden) });
    return spawnArgv([this.#bwrap, ...args, "bash", "-c", command], options);
  }
}

export interface BwrapCall {
  cwd: string;
  /** The hidden paths that exist, with their kind; missing ones need no mask. */
  masks: ReadonlyMap<string, MaskKind>;
}

/** The bubblewrap arguments for one call, up to and including the `--` before the command. */
export function bwrapArgs(policy: SandboxPolicy, call: BwrapCall): string[] {
  const tmp = policy.tempDir.path;
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", tmp, "/tmp"];
  for (const root of policy.writable) args.push("--bind", root, root);
  for (const [path, kind] of call.masks) {
    // Under /tmp only what is bound again is visible; masking the rest would just litter the temp dir.
    if (isUnder(path, "/tmp") && !policy.writable.some((root) => isUnder(path, root))) continue;
    if (kind === "dir") args.push("--tmpfs", path, "--remount-ro", path);
    else args.push("--ro-bind", "/dev/null", path);
  }
  args.push("--unshare-all");
  if (policy.network) args.push("--share-net");
  args.push("--die-with-parent", "--new-session", "--chdir", call.cwd);
  for (const name of ["TMPDIR", "TMP", "TEMP"]) args.push("--setenv", name, "/tmp");
  args.push("--");
  return args;
}
