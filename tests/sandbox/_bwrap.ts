/** Shared setup for the bubblewrap tests: a workspace, an outside dir and a session temp dir. */
import { join } from "node:path";
import { BubblewrapSandbox } from "../../src/sandbox/bubblewrap.ts";
import type { SandboxPolicy } from "../../src/sandbox/policy.ts";
import type { RunOptions, RunResult } from "../../src/sandbox/sandbox.ts";
import { SessionTempDir } from "../../src/sandbox/temp_dir.ts";
import { exists } from "../support/files.ts";

/** Only a missing binary skips: a bwrap that cannot create namespaces must fail the tests. */
export const BWRAP_MISSING = await bwrapMissing();

async function bwrapMissing(): Promise<boolean> {
  try {
    await new Deno.Command("bwrap", { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return false;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    console.warn("bubblewrap (bwrap) is not installed: the bubblewrap tests are skipped");
    return true;
  }
}

export interface Box extends AsyncDisposable {
  root: string;
  ws: string;
  outside: string;
  tempDir: SessionTempDir;
  policy: SandboxPolicy;
  sandbox: BubblewrapSandbox;
  sh(command: string, overrides?: Partial<RunOptions>): Promise<RunResult>;
}

export async function box(overrides: Partial<Omit<SandboxPolicy, "tempDir">> = {}): Promise<Box> {
  // Outside /tmp, so that "outside" is on the read-only root rather than hidden by the private /tmp.
  const root = await visibleTempDir("reasonix-bwrap-");
  const ws = join(root, "ws");
  const outside = join(root, "outside");
  await Deno.mkdir(ws);
  await Deno.mkdir(outside);
  const tempDir = await SessionTempDir.create(join(root, "state", "tmp"));
  const policy: SandboxPolicy = { writable: [ws], hidden: [], network: false, ...overrides, tempDir };
  const sandbox = new BubblewrapSandbox(policy);
  return {
    root,
    ws,
    outside,
    tempDir,
    policy,
    sandbox,
    sh: (command, more = {}) => sandbox.runShell(command, options(ws, more)),
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** A temp dir outside /tmp where possible, so it stays visible (read-only) inside the sandbox. */
export async function visibleTempDir(prefix: string): Promise<string> {
  const dir = (await exists("/var/tmp")) ? "/var/tmp" : undefined;
  return await Deno.realPath(await Deno.makeTempDir({ ...(dir ? { dir } : {}), prefix }));
}

export function options(cwd: string, overrides: Partial<RunOptions> = {}): RunOptions {
  return {
    cwd,
    signal: new AbortController().signal,
    timeoutMs: 60_000,
    maxOutputBytes: 100_000,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    ...overrides,
  };
}

export const IS_ROOT = Deno.uid() === 0;

/**
 * A bwrap that starts as `nobody` when the tests run as root, so the unprivileged path is covered too;
 * the box's files are handed to that user. Without root, plain bwrap already is that path.
 */
export async function unprivilegedBwrap(b: Box): Promise<string> {
  if (!IS_ROOT) return "bwrap";
  const wrapper = join(b.root, "bwrap-as-nobody");
  await Deno.writeTextFile(
    wrapper,
    '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups bwrap "$@"\n',
  );
  await Deno.chmod(wrapper, 0o755);
  for (const dir of [b.root, join(b.root, "state"), join(b.root, "state", "tmp"), b.outside]) {
    await Deno.chmod(dir, 0o755);
  }
  await Deno.chown(b.ws, 65534, 65534);
  await Deno.chown(b.tempDir.path, 65534, 65534);
  return wrapper;
}
