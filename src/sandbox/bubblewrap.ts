/**
 * @module
 * Linux: every child runs under bubblewrap. The root is read-only, the workspace and extra roots are
 * writable with `.git/hooks` and `.git/config` read-only inside them, the session temp dir is mounted at
 * /tmp, hidden paths are masked, the network is cut unless allowed, and the child gets fresh
 * PID/IPC/UTS/user namespaces and its own session. Even as root it holds no capability, cannot create
 * user namespaces, and a seccomp filter refuses mount, unshare, ptrace and the like. A symlink inside
 * the workspace that points elsewhere lands on the read-only root (or on the private /tmp).
 */
import { DirectSandbox, spawnArgv } from "./none.ts";
import type { SandboxPolicy } from "./policy.ts";
import type { RunOptions, RunResult, Sandbox, SpawnedProcess, SpawnOptions } from "./sandbox.ts";
import { isUnder } from "./_masks.ts";
import { type BwrapLayout, bwrapLayout } from "./_bwrap_layout.ts";
import { printfEscaped, type SeccompArch, seccompArch, seccompFilter } from "./seccomp.ts";

/** The flags that take every privilege away, also used by the probe so a host that refuses them is caught. */
export const HARDENING = ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"];

const SECCOMP_FD = "3";
// bwrap reads the filter from an inherited descriptor, which Deno's Command cannot hand over: bash
// opens a pipe fed by its printf builtin on fd 3, then becomes bwrap.
const WITH_FILTER = `exec ${SECCOMP_FD}< <(printf "$0") && exec "$@"`;

export class BubblewrapSandbox implements Sandbox {
  readonly name = "bubblewrap";
  readonly #policy: SandboxPolicy;
  readonly #bwrap: string;
  readonly #filter: string | undefined;
  readonly #direct = new DirectSandbox();

  constructor(policy: SandboxPolicy, bwrap = "bwrap", arch: SeccompArch | undefined = seccompArch()) {
    this.#policy = policy;
    this.#bwrap = bwrap;
    this.#filter = arch ? printfEscaped(seccompFilter(arch)) : undefined;
  }

  /** Whether a seccomp filter is loaded (x86_64 and aarch64 only). */
  get seccomp(): boolean {
    return this.#filter !== undefined;
  }

  runShell(command: string, options: RunOptions): Promise<RunResult> {
    return this.runArgv(["bash", "-c", command], options);
  }

  async runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    if (argv.length === 0 || argv[0] === "") {
      throw new TypeError("Cannot run a command: the argument vector is empty");
    }
    return await this.#direct.runArgv(this.#wrap(argv, options.cwd), options);
  }

  spawnShell(command: string, options: SpawnOptions): SpawnedProcess {
    return spawnArgv(this.#wrap(["bash", "-c", command], options.cwd), options);
  }

  #wrap(argv: readonly string[], cwd: string): string[] {
    const layout = bwrapLayout(this.#policy, cwd);
    const args = bwrapArgs(this.#policy, { cwd, layout, seccompFd: this.#filter ? SECCOMP_FD : undefined });
    const bwrap = [this.#bwrap, ...args, ...argv];
    return this.#filter ? ["bash", "-c", WITH_FILTER, this.#filter, ...bwrap] : bwrap;
  }
}

export interface BwrapCall {
  cwd: string;
  layout: BwrapLayout;
  /** The descriptor bubblewrap reads the seccomp filter from, when there is one. */
  seccompFd?: string | undefined;
}

/** The bubblewrap arguments for one call, up to and including the `--` before the command. */
export function bwrapArgs(policy: SandboxPolicy, call: BwrapCall): string[] {
  const { layout } = call;
  const tmp = policy.tempDir.path;
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  if (!layout.hostTmp) args.push("--bind", tmp, "/tmp");
  for (const root of policy.writable) args.push("--bind", root, root);
  for (const dir of layout.pins) args.push("--bind", dir, dir);
  for (const path of [...layout.readOnly, ...layout.lockedFiles]) args.push("--ro-bind", path, path);
  for (const path of layout.placeholders) args.push("--tmpfs", path, "--remount-ro", path);
  const maskedDirs: string[] = [];
  for (const [path, kind] of layout.masks) {
    // Under a private /tmp only what is bound again is visible; masking the rest would litter the temp dir.
    if (!layout.hostTmp && isUnder(path, "/tmp") && !policy.writable.some((root) => isUnder(path, root))) {
      continue;
    }
    if (kind === "dir") {
      args.push("--tmpfs", path);
      maskedDirs.push(path);
    } else {
      args.push("--ro-bind", "/dev/null", path);
    }
  }
  // Bound after the masks: the temp dir usually lives in the (masked) state dir.
  if (layout.hostTmp) args.push("--bind", tmp, tmp);
  for (const path of maskedDirs) args.push("--remount-ro", path);
  args.push(...HARDENING);
  if (call.seccompFd) args.push("--seccomp", call.seccompFd);
  if (policy.network) args.push("--share-net");
  args.push("--die-with-parent", "--new-session", "--chdir", call.cwd);
  const tmpEnv = layout.hostTmp ? tmp : "/tmp";
  for (const name of ["TMPDIR", "TMP", "TEMP"]) args.push("--setenv", name, tmpEnv);
  args.push("--");
  return args;
}
