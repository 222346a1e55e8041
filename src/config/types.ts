/**
 * @module
 * The resolved configuration every other layer reads. `load.ts` builds it from the five layers.
 */
import type { Effort } from "../provider/provider.ts";

export type ConfigSource = "builtin" | "legacy" | "global" | "project" | "flag";

export interface Price {
  /** Per 1M tokens. */
  cacheHit: number;
  input: number;
  output: number;
  currency: "CNY" | "USD";
}

export interface ProviderConfig {
  name: string;
  kind: "openai";
  baseUrl: string;
  models: string[];
  defaultModel: string;
  apiKeyEnv: string;
  contextWindow: number;
  /** How long the provider keeps a prefix cached; per-vendor default, `cache_ttl_minutes` overrides. */
  cacheTtlMinutes: number;
  /** 0 = let the provider decide (not sent), >0 = sent as max_tokens. */
  maxOutputTokens: number;
  /** `deepseek` sends `thinking`/`reasoning_effort` and replays reasoning; `none` sends neither. */
  reasoningProtocol: "deepseek" | "none";
  /** Explicit prices; built-in DeepSeek models use the schedule in provider/pricing.ts. */
  price?: Price;
  source: ConfigSource;
  /** The file that declared it (absent for built-ins). */
  file?: string;
}

export interface ModelOverride {
  contextWindow?: number;
  maxOutputTokens?: number;
  effort?: Effort;
}

/** `plan`: only readers run; the model proposes a plan the user approves (docs/PERMISSIONS.md). */
export type PermissionMode = "ask" | "auto" | "yolo" | "plan";

/** In the order Shift+Tab cycles them. */
export const PERMISSION_MODES: readonly PermissionMode[] = ["ask", "auto", "yolo", "plan"];

/** `[agent] delivery`: "verify" turns verified delivery's host gates on (docs/DELIVERY.md). */
export type DeliveryMode = "verify" | "off";
export const DELIVERY_MODES: readonly DeliveryMode[] = ["verify", "off"];

export interface SkillsConfig {
  paths: string[];
  excludedPaths: string[];
  disabled: string[];
  /** Leaves the skill catalog out of the session context: skills run only when the person types `/name`. */
  disableImplicitInvocation: boolean;
  /** How deep below a root a `SKILL.md` is looked for (1: `<root>/<name>/SKILL.md` only). */
  maxDepth: number;
}

/** `auto` follows `REASONIX_LANG`, then the locale. */
export type UiLanguageSetting = "auto" | "en" | "zh-CN" | "zh-TW";
export type ReasoningLanguageSetting = "auto" | "zh" | "en";
export type ThemeSetting = "auto" | "dark" | "light";

/** `[ui]`: read by the interactive TUI only. `showReasoning = false` folds reasoning while it streams too. */
export interface UiConfig {
  theme: ThemeSetting;
  showTurnUsage: boolean;
  showReasoning: boolean;
}

export type ServeAuthMode = "none" | "token" | "password";

export interface ServeConfig {
  /** `HOST:PORT` to listen on; `--addr` overrides it. */
  addr: string;
  authMode: ServeAuthMode;
  token?: string;
  /** A bcrypt hash (`reasonix serve --hash-password` prints one). */
  passwordHash?: string;
  /** Trust `X-Forwarded-For`/`-Host`/`-Proto` from a reverse proxy in front of the server. */
  behindProxy: boolean;
}

export interface ConfigWarning {
  file: string;
  line: number;
  column: number;
  message: string;
  /** The SHA-256 of the file's bytes: shown once per content of the file (config/warn_once.ts). */
  once?: string;
}

/** A Go Reasonix key a file sets that Reasonix accepts but does not use yet (config/go_keys.ts). */
export interface ConfigKeyNote {
  file: string;
  line: number;
  column: number;
  /** `agent.temperature`, `providers[1].thinking`, `providers[2].kind = "anthropic"` */
  key: string;
}

/** A key of a project file, where it is written. */
export interface ProjectKey {
  key: string;
  line: number;
  column: number;
}

/** The workspace's reasonix.toml as read: the digest of its bytes and what `reasonix trust` decides. */
export interface ProjectConfigState {
  file: string;
  sha256: string;
  trust: "trusted" | "untrusted" | "changed";
  /** Keys that loosen the user's settings: applied only while the file is trusted. */
  unlocks: ProjectKey[];
}

/** `[agent]` keys for subagents; a model or effort keyed by profile wins over everything else. */
export interface SubagentSettings {
  maxDepth?: number;
  maxConcurrency?: number;
  maxParallelWriters?: number;
  model?: string;
  models?: Record<string, string>;
  effort?: Effort;
  efforts?: Record<string, Effort>;
}

export interface ResolvedConfig {
  defaultModel: string;
  language: UiLanguageSetting;
  providers: ProviderConfig[];
  /**
   * The providers of the user-scope layers only (built-in, legacy, global), before the project file
   * replaced any: a project provider may use a key only on a host one of these already sends it to.
   */
  userProviders?: ProviderConfig[];
  modelOverrides: Record<string, ModelOverride>;
  /** `compactRatio`: compact when the context passes this share of the window (default 0.8). */
  agent: {
    systemPrompt?: string;
    maxSteps: number;
    effort: Effort;
    compactRatio?: number;
    /** `compact_force_ratio`: past this share a compaction happens even without a summary (0.9). */
    compactForceRatio?: number;
    /** `tool_result_snip_ratio`: past this share stale tool results are shortened (0.6). */
    snipRatio?: number;
    reasoningLanguage?: ReasoningLanguageSetting;
    /** Subagent limits and models (`max_subagent_depth`, `subagent_model`…); see _subagents.ts. */
    subagents?: SubagentSettings;
    delivery?: DeliveryMode;
    /** `verify_commands`: command prefixes verified delivery counts as checks besides the known ones. */
    verifyCommands?: string[];
  };
  tools: {
    enabled: string[];
    bashTimeoutSeconds: number;
    outputBudgetBytes: number;
    /** `host` or `host:port` entries web_fetch may reach though private or loopback; user config only. */
    webFetchAllowPrivate: string[];
    /** Defaults for every MCP server; `[[plugins]] startup_timeout_seconds` etc. override them. */
    mcpStartupTimeoutSeconds: number;
    mcpCallTimeoutSeconds: number;
  };
  /** Rules as written (checked at load); `allowDynamicBash` lets auto mode run tier-2 bash. */
  permissions: {
    mode: PermissionMode;
    allow: string[];
    ask: string[];
    deny: string[];
    allowDynamicBash: boolean;
  };
  /**
   * `network`: unset lets web_fetch reach the network but not bash; `true` opens both, `false` neither.
   * `bash`: run child processes in the OS sandbox; `require`: refuse bash when no OS sandbox can run.
   */
  sandbox: {
    allowWrite: string[];
    forbidRead: string[];
    network?: boolean;
    bash: boolean;
    require: boolean;
    /** Keep `.git/hooks` and `.git/config` read-only to tools and bash (they run code on the host). */
    protectGit: boolean;
  };
  /**
   * `protectSensitiveFiles`: hide well-known credential locations (`~/.ssh`, `~/.aws`, …) from tools and
   * bash. `envAllow`: variable names passed to child processes even though they look like secrets.
   */
  secrets: { protectSensitiveFiles: boolean; envAllow: string[] };
  /** Provider requests: bounded retries and the deadlines of each attempt (provider/deepseek/stall_watch.ts). */
  network: {
    maxRetries: number;
    retryBaseMs: number;
    connectTimeoutSeconds: number;
    firstByteTimeoutSeconds: number;
    idleTimeoutSeconds: number;
  };
  billing: { currency: "auto" | "CNY" | "USD" };
  /** `retentionDays`: how long file checkpoints are kept (default 30); user config only. */
  sessions: { retentionDays: number };
  /** `[skills]` (docs/SKILLS.md): extra roots (absolute, `~` expanded), skipped paths and names. */
  skills: SkillsConfig;
  ui: UiConfig;
  /** `[serve]`, user config only: a project file cannot loosen how `reasonix serve` is reached. */
  serve: ServeConfig;
  /** MCP servers of the TOML files (`[[plugins]]`), project entries replacing global ones by name. */
  mcpServers: McpServerDecl[];
  /** Files that were read, highest precedence last. */
  files: string[];
  /** Present when the workspace has a reasonix.toml that was read. */
  project?: ProjectConfigState;
  warnings: ConfigWarning[];
  /** Keys of the files read that are accepted but not used yet, in file order. */
  unused: ConfigKeyNote[];
}

export type McpTransportKind = "stdio" | "http" | "sse";

/**
 * Which file declared an MCP server: user-scope files run without asking, project files need trust.
 * `editor`: an ACP client named it for one session (the editor acts for the user, like a user file).
 */
export type McpSource = "global" | "legacy" | "project" | "mcp_json" | "editor";

/**
 * A remote server's OAuth settings: pre-registered credentials (`clientId`, `clientSecret`; without them
 * the client registers itself), the fixed loopback port of the login callback, and the scopes to ask for.
 */
export interface McpOAuthDecl {
  clientId?: string;
  clientSecret?: string;
  callbackPort?: number;
  scopes?: string[];
  /** An https URL where this client's metadata document is published (a Client ID Metadata Document):
   * used as the client id by servers that support it, instead of registering. */
  clientMetadataUrl?: string;
}

/** One MCP server exactly as a file writes it: `${VAR}` references are not expanded yet. */
export interface McpServerDecl {
  name: string;
  type: McpTransportKind;
  command: string;
  args: string[];
  env: Record<string, string>;
  url: string;
  headers: Record<string, string>;
  startupTimeoutSeconds?: number;
  callTimeoutSeconds?: number;
  toolTimeoutSeconds: Record<string, number>;
  /** false: started on first use instead of with the session. */
  autoStart: boolean;
  /** OAuth settings of an HTTP server; every field is optional (src/mcp/oauth_provider.ts). */
  oauth?: McpOAuthDecl;
  source: McpSource;
  file: string;
  /** Where the entry and each of its fields are written (`entry`, `command`, `args`, `url`, ...). */
  at: Record<string, { line: number; column: number }>;
}
