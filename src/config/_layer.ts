/**
 * @module
 * Turns one checked TOML file into the values it sets, in resolved (camelCase) form. Only what the file
 * names is present, so layers can be merged key by key.
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import { normalizeEffort } from "../provider/effort.ts";
import type { KeyPath } from "./_locate.ts";
import { ConfigError } from "./errors.ts";
import { type ConfinedRead, describeRefusal, readConfined } from "../lib/confined_read.ts";
import { ruleProblem } from "../permission/rules.ts";
import { DEFAULT_CONTEXT_WINDOW, defaultCacheTtlMinutes } from "./builtin.ts";
import { PROVIDER_KINDS_NOT_USED_YET, REASONING_PROTOCOLS_NOT_USED_YET } from "./go_keys.ts";
import {
  type CheckContext,
  configError,
  isTable,
  noteUnused,
  PERMISSION_ALIASES,
  quoteList,
  safeUrl,
  warn,
} from "./schema.ts";
import { tomlMcpServers } from "./_mcp_servers.ts";
import { subagentSettings } from "./_subagents.ts";
import type {
  ConfigSource,
  McpServerDecl,
  McpSource,
  ModelOverride,
  PermissionMode,
  Price,
  ProviderConfig,
  ResolvedConfig,
} from "./types.ts";

export interface LayerValues {
  defaultModel?: { value: string; file: string; line: number; column: number };
  language?: ResolvedConfig["language"];
  providers: ProviderConfig[];
  mcpServers: McpServerDecl[];
  modelOverrides: Record<string, ModelOverride>;
  agent: Partial<ResolvedConfig["agent"]>;
  tools: Partial<ResolvedConfig["tools"]>;
  permissions: Partial<ResolvedConfig["permissions"]>;
  sandbox: Partial<ResolvedConfig["sandbox"]>;
  secrets: Partial<ResolvedConfig["secrets"]>;
  network: Partial<ResolvedConfig["network"]>;
  billing: Partial<ResolvedConfig["billing"]>;
  sessions: Partial<ResolvedConfig["sessions"]>;
  skills: Partial<ResolvedConfig["skills"]>;
  ui: Partial<ResolvedConfig["ui"]>;
  serve: Partial<ResolvedConfig["serve"]>;
}

export interface LayerContext extends CheckContext {
  source: ConfigSource;
  workspace: string;
  userHome: string;
  /** Where a file this layer names (system_prompt_file) may not resolve to. */
  hidden: string[];
}

type Raw = Record<string, unknown>;

const KNOWN_KINDS = ["openai"];

function section(raw: Raw, key: string): Raw {
  const value = raw[key];
  return isTable(value) ? value : {};
}

export async function layerValues(raw: Raw, context: LayerContext): Promise<LayerValues> {
  const agent = section(raw, "agent");
  const tools = section(raw, "tools");
  const permissions = section(raw, "permissions");
  const sandbox = section(raw, "sandbox");
  const network = section(raw, "network");
  const ui = section(raw, "ui");
  const secrets = section(raw, "secrets");
  const values: LayerValues = {
    providers: providers(raw.providers, context),
    mcpServers: tomlMcpServers(raw.plugins, { ...context, source: mcpSource(context.source) }),
    modelOverrides: modelOverrides(section(raw, "model_overrides")),
    agent: compact({
      systemPrompt: await systemPrompt(agent, context),
      maxSteps: agent.max_steps as number | undefined,
      effort: effortOf(agent.effort),
      compactRatio: agent.compact_ratio as number | undefined,
      compactForceRatio: agent.compact_force_ratio as number | undefined,
      snipRatio: agent.tool_result_snip_ratio as number | undefined,
      reasoningLanguage: agent.reasoning_language as ResolvedConfig["agent"]["reasoningLanguage"],
      subagents: subagentSettings(agent, context),
      delivery: agent.delivery as ResolvedConfig["agent"]["delivery"],
      verifyCommands: agent.verify_commands as string[] | undefined,
    }),
    tools: compact({
      enabled: tools.enabled as string[] | undefined,
      bashTimeoutSeconds: tools.bash_timeout_seconds as number | undefined,
      outputBudgetBytes: tools.output_budget_bytes as number | undefined,
      webFetchAllowPrivate: tools.web_fetch_allow_private as string[] | undefined,
      mcpStartupTimeoutSeconds: tools.mcp_startup_timeout_seconds as number | undefined,
      mcpCallTimeoutSeconds: tools.mcp_call_timeout_seconds as number | undefined,
    }),
    permissions: compact({
      mode: permissionMode(permissions.mode),
      allow: checkedRules(permissions, "allow", context),
      ask: checkedRules(permissions, "ask", context),
      deny: checkedRules(permissions, "deny", context),
      allowDynamicBash: permissions.allow_dynamic_bash as boolean | undefined,
    }),
    sandbox: compact({
      allowWrite: absolutePaths(sandbox.allow_write, context),
      forbidRead: absolutePaths(sandbox.forbid_read, context),
      network: sandbox.network as boolean | undefined,
      bash: sandbox.bash as boolean | undefined,
      require: sandbox.require as boolean | undefined,
      protectGit: sandbox.protect_git as boolean | undefined,
    }),
    secrets: compact({
      protectSensitiveFiles: secrets.protect_sensitive_files as boolean | undefined,
      envAllow: secrets.env_allow as string[] | undefined,
    }),
    network: compact({
      maxRetries: network.max_retries as number | undefined,
      retryBaseMs: network.retry_base_ms as number | undefined,
      connectTimeoutSeconds: network.connect_timeout_seconds as number | undefined,
      firstByteTimeoutSeconds: network.first_byte_timeout_seconds as number | undefined,
      idleTimeoutSeconds: network.idle_timeout_seconds as number | undefined,
    }),
    billing: compact({
      currency: section(raw, "billing").display_currency as ResolvedConfig["billing"]["currency"] | undefined,
    }),
    sessions: compact({
      retentionDays: section(raw, "sessions").retention_days as number | undefined,
    }),
    skills: skillValues(section(raw, "skills"), context),
    ui: compact({
      theme: ui.theme as ResolvedConfig["ui"]["theme"] | undefined,
      showTurnUsage: ui.show_turn_usage as boolean | undefined,
      showReasoning: ui.show_reasoning as boolean | undefined,
    }),
    serve: serveValues(section(raw, "serve")),
  };
  if (typeof raw.language === "string") values.language = raw.language as ResolvedConfig["language"];
  if (typeof raw.default_model === "string") {
    const at = context.locator.keyPosition(["default_model"]);
    values.defaultModel = { value: raw.default_model.trim(), file: context.file, ...at };
  }
  return values;
}

function mcpSource(source: ConfigSource): McpSource {
  return source === "legacy" || source === "project" ? source : "global";
}

function compact<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

function permissionMode(mode: unknown): PermissionMode | undefined {
  if (typeof mode !== "string") return undefined;
  return (PERMISSION_ALIASES[mode] ?? mode) as PermissionMode;
}

function checkedRules(permissions: Raw, key: "allow" | "ask" | "deny", context: LayerContext) {
  const rules = permissions[key] as string[] | undefined;
  rules?.forEach((rule, index) => {
    const problem = ruleProblem(rule);
    if (problem === null) return;
    const path: KeyPath = ["permissions", key, index];
    const at = context.locator.valuePosition(path);
    const singleLine = !rule.includes("\n");
    const column = singleLine ? at.column + 1 + problem.offset : at.column;
    throw new ConfigError(
      "config.invalid",
      `Cannot read "permissions.${key}[${index}]": ${
        problem.message.replace(/^Cannot read permission rule: /, "")
      }`,
      { file: context.file, line: at.line, column, key: `permissions.${key}[${index}]` },
    );
  });
  return rules;
}

function absolutePaths(value: unknown, context: LayerContext): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((item: string) => expandPath(item, context));
}

export function expandPath(path: string, context: { workspace: string; userHome: string }): string {
  if (path === "~") return context.userHome;
  if (path.startsWith("~/")) return join(context.userHome, path.slice(2));
  return resolve(context.workspace, path);
}

async function systemPrompt(agent: Raw, context: LayerContext): Promise<string | undefined> {
  const inline = agent.system_prompt as string | undefined;
  const file = agent.system_prompt_file as string | undefined;
  if (file === undefined) return inline;
  const path: KeyPath = ["agent", "system_prompt_file"];
  if (inline !== undefined) {
    throw configError(
      context,
      path,
      `Cannot read "agent.system_prompt_file": "agent.system_prompt" is also set in this file`,
    );
  }
  const project = context.source === "project";
  const base = project ? context.workspace : join(context.file, "..");
  const full = file.startsWith("~/") ? expandPath(file, context) : resolve(base, file);
  const inside = relative(context.workspace, full);
  if (project && (inside.startsWith("..") || isAbsolute(inside))) {
    throw configError(
      context,
      path,
      `Cannot read "agent.system_prompt_file": "${file}" is outside the workspace`,
    );
  }
  let read: ConfinedRead;
  try {
    read = await readConfined(full, {
      ...(project ? { roots: [context.workspace] } : {}),
      hidden: context.hidden,
    });
  } catch (error) {
    throw configError(
      context,
      path,
      `Cannot read "agent.system_prompt_file": "${full}": ${(error as Error).message}`,
    );
  }
  if (read.kind === "text") return read.text;
  if (read.kind === "refused") {
    warn(context, path, describeRefusal(full, read));
    return undefined;
  }
  const reason = read.kind === "missing" ? "no such file" : read.reason;
  throw configError(context, path, `Cannot read "agent.system_prompt_file": "${full}": ${reason}`);
}

function effortOf(value: unknown) {
  return typeof value === "string" ? normalizeEffort(value) : undefined;
}

function modelOverrides(raw: Raw): Record<string, ModelOverride> {
  const out: Record<string, ModelOverride> = {};
  for (const [model, value] of Object.entries(raw)) {
    const item = value as Raw;
    out[model] = compact({
      contextWindow: item.context_window as number | undefined,
      maxOutputTokens: normalizeMaxOutput(item.max_output_tokens as number | undefined),
      effort: effortOf(item.effort),
    });
  }
  return out;
}

/** Go treats a negative value as "omit"; so does 0 here. */
function normalizeMaxOutput(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.max(0, value);
}

/** A provider of a kind Reasonix does not speak yet is noted and left out. */
function providers(value: unknown, context: LayerContext): ProviderConfig[] {
  if (!Array.isArray(value)) return [];
  const seen = new Map<string, number>();
  return value.flatMap((item: Raw, index) => {
    if (typeof item.kind === "string" && PROVIDER_KINDS_NOT_USED_YET.includes(item.kind)) {
      noteUnused(context, ["providers", index, "kind"], item.kind);
      return [];
    }
    const provider = providerConfig(item, index, context);
    const earlier = seen.get(provider.name);
    if (earlier !== undefined) {
      throw configError(
        context,
        ["providers", index, "name"],
        `Cannot read "providers[${index}].name": provider "${provider.name}" is already declared as providers[${earlier}]`,
      );
    }
    seen.set(provider.name, index);
    return [provider];
  });
}

function providerConfig(item: Raw, index: number, context: LayerContext): ProviderConfig {
  const at = (key: string): KeyPath => ["providers", index, key];
  const key = (name: string) => `providers[${index}].${name}`;
  const required = (name: string): string => {
    const value = item[name];
    if (typeof value === "string") return value.trim();
    throw configError(
      context,
      ["providers", index],
      `Cannot read "providers[${index}]": "${name}" is required`,
    );
  };
  const name = required("name");
  const kind = typeof item.kind === "string" && item.kind !== "" ? item.kind : "openai";
  if (!KNOWN_KINDS.includes(kind)) {
    const expected = quoteList([...KNOWN_KINDS, ...PROVIDER_KINDS_NOT_USED_YET]);
    const detail = `expected one of ${expected}, got "${kind}"`;
    throw configError(context, at("kind"), `Cannot read "${key("kind")}": ${detail}`, "config.type");
  }
  const baseUrl = required("base_url").replace(/\/+$/, "");
  const { models, defaultModel } = providerModels(item, { index, context });
  return {
    name,
    kind: "openai",
    baseUrl,
    models,
    defaultModel,
    apiKeyEnv: typeof item.api_key_env === "string" ? item.api_key_env : "",
    contextWindow: (item.context_window as number | undefined) ?? DEFAULT_CONTEXT_WINDOW,
    cacheTtlMinutes: (item.cache_ttl_minutes as number | undefined) ?? defaultCacheTtlMinutes(baseUrl),
    maxOutputTokens: normalizeMaxOutput(item.max_output_tokens as number | undefined) ?? 0,
    reasoningProtocol: reasoningProtocol(item, { index, context, baseUrl }),
    ...(isTable(item.price) ? { price: providerPrice(item.price, { index, context }) } : {}),
    source: context.source,
    file: context.file,
  };
}

function providerModels(item: Raw, options: { index: number; context: LayerContext }) {
  const { index, context } = options;
  const single = typeof item.model === "string" ? item.model.trim() : undefined;
  const list = Array.isArray(item.models) ? (item.models as string[]).map((model) => model.trim()) : [];
  if (single !== undefined && !list.includes(single)) list.unshift(single);
  if (list.length === 0 || list.includes("")) {
    throw configError(
      context,
      ["providers", index],
      `Cannot read "providers[${index}]": expected "model" or a non-empty "models"`,
    );
  }
  const explicit = typeof item.default === "string" && item.default.trim() !== ""
    ? item.default.trim()
    : undefined;
  const chosen = explicit ?? single ?? list[0]!;
  if (!list.includes(chosen)) {
    throw configError(
      context,
      ["providers", index, "default"],
      `Cannot read "providers[${index}].default": expected one of ${quoteList(list)}, got "${chosen}"`,
      "config.type",
    );
  }
  return { models: list, defaultModel: chosen };
}

function reasoningProtocol(
  item: Raw,
  options: { index: number; context: LayerContext; baseUrl: string },
): ProviderConfig["reasoningProtocol"] {
  const value = item.reasoning_protocol === "" ? undefined : item.reasoning_protocol as string | undefined;
  const path: KeyPath = ["providers", options.index, "reasoning_protocol"];
  if (value === undefined) {
    const host = safeUrl(options.baseUrl)?.hostname ?? "";
    return host === "deepseek.com" || host.endsWith(".deepseek.com") ? "deepseek" : "none";
  }
  if (value === "deepseek" || value === "none") return value;
  if (REASONING_PROTOCOLS_NOT_USED_YET.includes(value)) {
    noteUnused(options.context, path, value);
    return "none";
  }
  const expected = quoteList(["deepseek", "none", ...REASONING_PROTOCOLS_NOT_USED_YET]);
  throw configError(
    options.context,
    path,
    `Cannot read "providers[${options.index}].reasoning_protocol": expected one of ${expected}, got "${value}"`,
    "config.type",
  );
}

function providerPrice(raw: Raw, options: { index: number; context: LayerContext }): Price {
  for (const name of ["input", "output"]) {
    if (typeof raw[name] !== "number") {
      const path: KeyPath = ["providers", options.index, "price"];
      throw configError(
        options.context,
        path,
        `Cannot read "providers[${options.index}].price": "${name}" is required`,
      );
    }
  }
  const input = raw.input as number;
  return {
    cacheHit: (raw.cache_hit as number | undefined) ?? input,
    input,
    output: raw.output as number,
    currency: (raw.currency as Price["currency"] | undefined) ?? "USD",
  };
}

function serveValues(serve: Raw): Partial<ResolvedConfig["serve"]> {
  return compact({
    addr: serve.addr as string | undefined,
    authMode: serve.auth_mode as ResolvedConfig["serve"]["authMode"] | undefined,
    token: serve.token as string | undefined,
    passwordHash: serve.password_hash as string | undefined,
    behindProxy: serve.behind_proxy as boolean | undefined,
  });
}

function skillValues(skills: Raw, context: LayerContext): Partial<ResolvedConfig["skills"]> {
  return compact({
    paths: absolutePaths(skills.paths, context),
    excludedPaths: absolutePaths(skills.excluded_paths, context),
    disabled: skills.disabled_skills as string[] | undefined,
    disableImplicitInvocation: skills.disable_implicit_invocation as boolean | undefined,
    maxDepth: skills.max_depth as number | undefined,
  });
}
