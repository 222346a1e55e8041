/**
 * @module
 * Builds the session's sandbox: the policy (writable roots, hidden and read-only paths, private temp
 * dir, network), the OS sandbox for this platform, and a child environment without credentials
 * (`[secrets] env_allow` names the exceptions).
 */
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { parseDotenv } from "../config/dotenv.ts";
import { scrubEnv, withBaseEnv, withTempEnv } from "../sandbox/env.ts";
import type { SandboxPolicy } from "../sandbox/policy.ts";
import type { Probe } from "../sandbox/probe.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { selectSandbox } from "../sandbox/select.ts";
import { type EditorTerminal, withEditorTerminal } from "../sandbox/editor_terminal.ts";
import { SessionTempDir, tempRoot } from "../sandbox/temp_dir.ts";
import type { Workspace } from "../tool/tool.ts";
import { FENCED_ENV } from "./fence.ts";

export interface SandboxSetupOptions {
  config: ResolvedConfig;
  paths: Paths;
  env: Record<string, string>;
  workspace: Workspace;
  os?: string;
  probe?: () => Promise<Probe>;
  /** The writable roots when not the workspace's (a subagent's `write_paths` claim; [] for a reader). */
  writable?: readonly string[];
  /** The editor's terminal: unsandboxed foreground commands run there (editor_terminal.ts). */
  terminal?: EditorTerminal | undefined;
}

export interface SandboxSetup {
  sandbox: Sandbox;
  tempDir: SessionTempDir;
  warning?: string;
  /** What is in force, for `/sandbox`. */
  summary: SandboxSummary;
}

export interface SandboxSummary {
  /** `bubblewrap`, `seatbelt`, `none` (direct) or `refused`. */
  backend: string;
  /** `[sandbox] bash = false`: commands run directly by choice. */
  disabled: boolean;
  network: boolean;
  writable: string[];
  forbidRead: string[];
  /** Paths inside the writable roots that stay read-only (`.git/hooks`, `.git/config`). */
  readOnly: string[];
  tempDir: string;
  warning?: string;
}

export async function setupSandbox(options: SandboxSetupOptions): Promise<SandboxSetup> {
  const { config, paths, workspace } = options;
  const tempDir = await SessionTempDir.create(tempRoot(paths.stateHome));
  const policy: SandboxPolicy = {
    writable: options.writable ? [...options.writable] : [workspace.root, ...workspace.extraWritable],
    hidden: workspace.forbidRead,
    readOnly: workspace.readOnly ?? [],
    tempDir,
    network: config.sandbox.network === true,
  };
  const choice = await selectSandbox(policy, {
    enabled: config.sandbox.bash,
    require: config.sandbox.require,
    os: options.os ?? Deno.build.os,
    ...(options.probe ? { probe: options.probe } : {}),
  });
  const secrets = [...config.providers.map((p) => p.apiKeyEnv), ...await dotenvNames(paths.envFile)];
  // A `reasonix run` started from bash must fence itself again.
  const { [FENCED_ENV]: _fenced, ...env } = options.env;
  const base = scrubEnv(env, secrets, config.secrets.envAllow);
  const runner = withEditorTerminal(choice.sandbox, options.terminal);
  const sandbox = withBaseEnv(runner, () => withTempEnv(base, tempDir.path));
  const warning = choice.warning ? { warning: choice.warning } : {};
  const summary: SandboxSummary = {
    backend: choice.sandbox.name,
    disabled: !config.sandbox.bash,
    network: policy.network,
    writable: [...policy.writable],
    forbidRead: [...policy.hidden],
    readOnly: [...policy.readOnly ?? []],
    tempDir: tempDir.path,
    ...warning,
  };
  return { sandbox, tempDir, summary, ...warning };
}

/** Every name set in `<home>/.env`: whatever the user keeps there is a credential to strip. */
async function dotenvNames(file: string): Promise<string[]> {
  try {
    return [...parseDotenv(await Deno.readTextFile(file)).keys()];
  } catch {
    return [];
  }
}
