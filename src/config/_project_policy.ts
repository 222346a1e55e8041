/**
 * @module
 * What a project's reasonix.toml may change. Each security-relevant key is declared once with a test
 * for "no looser than the user's own settings". A looser value applies only when the user trusted the
 * file's exact bytes (`reasonix trust`); otherwise it is dropped, with a warning at its file:line:col,
 * before the layer is read (so an ignored system_prompt_file is never opened). User-only keys are never
 * read from a project file.
 */
import type { KeyPath } from "./_locate.ts";
import type { ProjectTrust } from "./project_trust.ts";
import { type CheckContext, displayKey, isTable, PERMISSION_ALIASES } from "./schema.ts";
import type { PermissionMode, ProjectKey, ResolvedConfig } from "./types.ts";

type Raw = Record<string, unknown>;

interface PolicyContext {
  user: ResolvedConfig;
  /** Resolves a path value the way the layer will (`~`, workspace-relative). */
  expand: (path: string) => string;
}

interface KeyPolicy {
  path: [string, string];
  /** True when the value is no looser than the user's settings; absent: the key is user-only. */
  tightens?: (value: unknown, context: PolicyContext) => boolean;
}

// Plan mode runs no writer at all: stricter than ask.
const MODE_RANK: Record<PermissionMode, number> = { plan: -1, ask: 0, auto: 1, yolo: 2 };

const POLICIES: readonly KeyPolicy[] = [
  // Replacing the system prompt replaces every rule it states: never a tightening.
  { path: ["agent", "system_prompt"], tightens: () => false },
  { path: ["agent", "system_prompt_file"], tightens: () => false },
  { path: ["tools", "enabled"], tightens: (value, { user }) => narrows(strings(value), user.tools.enabled) },
  {
    path: ["permissions", "mode"],
    tightens: (value, { user }) => MODE_RANK[modeOf(value)] <= MODE_RANK[user.permissions.mode],
  },
  {
    path: ["permissions", "allow"],
    tightens: (value, { user }) => subset(strings(value).map((rule) => rule.trim()), user.permissions.allow),
  },
  {
    path: ["permissions", "allow_dynamic_bash"],
    tightens: (value, { user }) => value === false || user.permissions.allowDynamicBash,
  },
  {
    path: ["sandbox", "allow_write"],
    tightens: (value, { user, expand }) => subset(strings(value).map(expand), user.sandbox.allowWrite),
  },
  {
    path: ["sandbox", "network"],
    tightens: (value, { user }) => value === false || user.sandbox.network === true,
  },
  { path: ["sandbox", "bash"], tightens: (value, { user }) => value === true || !user.sandbox.bash },
  { path: ["sandbox", "require"], tightens: (value, { user }) => value === true || !user.sandbox.require },
  {
    path: ["sandbox", "protect_git"],
    tightens: (value, { user }) => value === true || !user.sandbox.protectGit,
  },
  {
    path: ["secrets", "protect_sensitive_files"],
    tightens: (value, { user }) => value === true || !user.secrets.protectSensitiveFiles,
  },
  {
    path: ["secrets", "env_allow"],
    tightens: (value, { user }) => subset(strings(value), user.secrets.envAllow),
  },
  // Goal mode forces verified delivery on: a project may not make `echo` count as a check.
  {
    path: ["agent", "verify_commands"],
    tightens: (value, { user }) =>
      subset(strings(value).map((prefix) => prefix.trim()), user.agent.verifyCommands ?? []),
  },
  {
    path: ["tools", "web_fetch_allow_private"],
    tightens: (value, { user }) => subset(strings(value), user.tools.webFetchAllowPrivate),
  },
  { path: ["billing", "display_currency"] },
  { path: ["sessions", "retention_days"] },
  { path: ["serve", "addr"] },
  { path: ["serve", "auth_mode"] },
  { path: ["serve", "token"] },
  { path: ["serve", "password_hash"] },
  { path: ["serve", "behind_proxy"] },
];

export interface PolicyResult {
  /** The project table without the keys that do not apply. */
  raw: Raw;
  /** The keys that loosen the user's settings: what trusting this file applies. */
  unlocks: ProjectKey[];
}

export function projectPolicy(
  raw: Raw,
  options: PolicyContext & { trust: ProjectTrust; check: CheckContext },
): PolicyResult {
  const kept: Raw = { ...raw };
  const unlocks: ProjectKey[] = [];
  const ignored: { path: KeyPath; message: string; at: { line: number; column: number } }[] = [];
  for (const policy of POLICIES) {
    const [table, key] = policy.path;
    const section = kept[table];
    if (!isTable(section) || !Object.hasOwn(section, key)) continue;
    if (policy.tightens?.(section[key], options)) continue;
    const at = options.check.locator.keyPosition(policy.path);
    const name = displayKey(policy.path);
    if (policy.tightens) unlocks.push({ key: name, ...at });
    if (policy.tightens && options.trust === "trusted") continue;
    const { [key]: _dropped, ...rest } = section;
    kept[table] = rest;
    ignored.push({ path: policy.path, message: ignoredMessage(name, policy, options.trust), at });
  }
  const byPosition = (a: { line: number; column: number }, b: { line: number; column: number }) =>
    a.line - b.line || a.column - b.column;
  ignored.sort((a, b) => byPosition(a.at, b.at));
  for (const item of ignored) {
    options.check.warnings.push({ file: options.check.file, ...item.at, message: item.message });
  }
  return { raw: kept, unlocks: unlocks.sort(byPosition) };
}

function ignoredMessage(name: string, policy: KeyPolicy, trust: ProjectTrust): string {
  if (!policy.tightens) return `"${name}" is only read from the user config and is ignored here`;
  if (trust === "changed") {
    return `"${name}" is ignored: reasonix.toml changed since you trusted it; run \`reasonix trust\` to review`;
  }
  return `"${name}" in a project file may only tighten your own settings and is ignored: ` +
    "run `reasonix trust` to review and apply this reasonix.toml";
}

function modeOf(value: unknown): PermissionMode {
  const mode = String(value);
  return (PERMISSION_ALIASES[mode] ?? mode) as PermissionMode;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function subset(values: readonly string[], of: readonly string[]): boolean {
  return values.every((value) => of.includes(value));
}

/** `[]` enables every tool, so a list narrows an empty one and a subset narrows a list. */
function narrows(enabled: readonly string[], user: readonly string[]): boolean {
  if (user.length === 0) return true;
  return enabled.length > 0 && subset(enabled, user);
}
