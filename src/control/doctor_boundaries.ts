/**
 * @module
 * `reasonix doctor`: the boundaries really in force for bash, measured through the live sandbox — the
 * privileges a sandboxed command holds, running as root, writable roots, hidden and read-only paths,
 * and the child-environment scrub.
 */
import type { Paths } from "../config/paths.ts";
import { protectedPaths } from "../config/protected_paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { SCRUB_RULE } from "../sandbox/_secret_env.ts";
import { parsePrivileges, type ProcessPrivileges, STATUS_COMMAND } from "../sandbox/inspect.ts";
import type { Probe } from "../sandbox/probe.ts";
import { BLOCKED_SYSCALLS } from "../sandbox/seccomp.ts";
import type { DoctorCheck } from "./doctor.ts";
import { type SandboxSetup, setupSandbox } from "./sandbox_setup.ts";

export interface BoundaryOptions {
  workspace: string;
  paths: Paths;
  config: ResolvedConfig;
  env: Record<string, string>;
  os: string;
  probe?: () => Promise<Probe>;
  uid?: number | null;
}

export async function boundaryChecks(options: BoundaryOptions): Promise<DoctorCheck[]> {
  const { config } = options;
  const roots = [options.workspace, ...await realDirs(config.sandbox.allowWrite)];
  const { hidden, readOnly } = protectedPaths(config, options.paths, roots);
  const setup = await setupSandbox({
    config,
    paths: options.paths,
    env: options.env,
    workspace: { root: roots[0]!, extraWritable: roots.slice(1), forbidRead: hidden, readOnly },
    os: options.os,
    ...(options.probe ? { probe: options.probe } : {}),
  });
  try {
    const uid = options.uid === undefined ? Deno.uid() : options.uid;
    return [
      await privileges(setup, options.workspace),
      ...(uid === 0 ? [rootWarning()] : []),
      { name: "writable", status: "ok", detail: roots.join(", "), list: roots },
      {
        name: "hidden paths",
        status: "ok",
        detail: `${hidden.length} paths look missing to tools and are masked in bash (--json lists them)`,
        list: hidden,
      },
      {
        name: "read-only paths",
        status: readOnly.length > 0 ? "ok" : "warn",
        detail: readOnly.length > 0 ? readOnly.join(", ") : "none ([sandbox] protect_git = false)",
        list: readOnly,
      },
      envScrub(config),
    ];
  } finally {
    await setup.tempDir.remove();
  }
}

async function privileges(setup: SandboxSetup, cwd: string): Promise<DoctorCheck> {
  const name = "privileges";
  if (setup.summary.backend !== "bubblewrap") {
    const why = setup.summary.backend === "refused"
      ? "bash is refused"
      : "bash is not in a bubblewrap sandbox";
    return { name, status: setup.summary.backend === "seatbelt" ? "ok" : "warn", detail: why };
  }
  const run = await setup.sandbox.runShell(STATUS_COMMAND, {
    cwd,
    signal: new AbortController().signal,
    timeoutMs: 10_000,
    maxOutputBytes: 10_000,
  });
  const found = parsePrivileges(run.output);
  if (!found) {
    return { name, status: "warn", detail: `cannot read the sandbox's status: ${run.output.trim()}` };
  }
  return { name, status: contained(found) ? "ok" : "warn", detail: describe(found) };
}

function contained(found: ProcessPrivileges): boolean {
  return found.effective.length === 0 && found.bounding.length === 0 && found.noNewPrivs &&
    found.seccomp === 2;
}

function describe(found: ProcessPrivileges): string {
  const list = (names: string[]) => names.length === 0 ? "none" : names.join(",");
  const seccomp = found.seccomp === 2
    ? `seccomp filter on (refuses ${
      BLOCKED_SYSCALLS.slice(0, 4).join(", ")
    }, … ${BLOCKED_SYSCALLS.length} in all)`
    : "no seccomp filter";
  return `inside bash: capabilities ${list(found.effective)} (bounding set ${list(found.bounding)}), ` +
    `${seccomp}, no_new_privs ${found.noNewPrivs ? "on" : "off"}, no new user namespaces`;
}

function rootWarning(): DoctorCheck {
  return {
    name: "root",
    status: "warn",
    detail:
      "Reasonix runs as root (uid 0): inside the sandbox bash keeps no capability, but Reasonix itself, " +
      "its file tools and anything run unsandboxed act as root; prefer an ordinary user",
  };
}

function envScrub(config: ResolvedConfig): DoctorCheck {
  const allow = config.secrets.envAllow;
  return {
    name: "env scrub",
    status: "ok",
    detail: `child processes lose provider keys, .env names and ${SCRUB_RULE}; ` +
      (allow.length > 0
        ? `allowed by [secrets] env_allow: ${allow.join(", ")}`
        : "[secrets] env_allow is empty"),
    list: [...allow],
  };
}

async function realDirs(paths: readonly string[]): Promise<string[]> {
  const dirs: string[] = [];
  for (const path of paths) dirs.push(await Deno.realPath(path).catch(() => path));
  return [...new Set(dirs)];
}
