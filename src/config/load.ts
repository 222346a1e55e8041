/**
 * @module
 * Builds the ResolvedConfig from five layers, lowest first: built-in defaults, the first legacy global
 * file, `<home>/config.toml`, `<workspace>/reasonix.toml`, then command-line flags.
 */
import { join, resolve } from "node:path";
import { parse, TomlError } from "smol-toml";
import { ACCEPTED_EFFORTS, normalizeEffort } from "../provider/effort.ts";
import { ReasonixError } from "../lib/errors.ts";
import { TomlLocator } from "./_locate.ts";
import { expandPath, type LayerContext, type LayerValues, layerValues } from "./_layer.ts";
import { projectPolicy } from "./_project_policy.ts";
import { hiddenPaths, secretPaths } from "./hidden.ts";
import { projectConfigDigest, projectTrust } from "./project_trust.ts";
import { type ConfinedRead, describeRefusal, readConfined } from "../lib/confined_read.ts";
import { builtinConfig } from "./builtin.ts";
import { ConfigError } from "./errors.ts";
import { resolveModel } from "./models.ts";
import { ruleProblem } from "../permission/rules.ts";
import type { Paths } from "./paths.ts";
import { checkTable, CONFIG_SPEC, PERMISSION_ALIASES, PERMISSION_MODES, quoteList } from "./schema.ts";
import type {
  ConfigSource,
  ConfigWarning,
  PermissionMode,
  ProjectConfigState,
  ProviderConfig,
  ResolvedConfig,
} from "./types.ts";

export const PROJECT_CONFIG_FILE = "reasonix.toml";

export interface ConfigFlags {
  model?: string;
  effort?: string;
  maxSteps?: number;
  permissionMode?: string;
  addDirs?: string[];
  /** `--allowed-tools`: allow rules for this session only. */
  allowedTools?: string[];
}

export interface LoadOptions {
  workspace: string;
  paths: Paths;
  flags?: ConfigFlags;
}

interface FileLayer {
  file: string;
  source: ConfigSource;
  values: LayerValues;
  project?: ProjectConfigState;
}

export async function loadConfig(options: LoadOptions): Promise<ResolvedConfig> {
  const workspace = resolve(options.workspace);
  const { paths } = options;
  const config = builtinConfig();
  const candidates: { file: string; source: ConfigSource }[] = [];
  if (!paths.selfContained) {
    const legacy = await firstExisting(paths.legacyConfigFiles);
    if (legacy !== undefined) candidates.push({ file: legacy, source: "legacy" });
  }
  candidates.push({ file: paths.globalConfigFile, source: "global" });
  candidates.push({ file: join(workspace, PROJECT_CONFIG_FILE), source: "project" });
  let defaultModelAt: LayerValues["defaultModel"];
  for (const candidate of candidates) {
    const layer = await readLayer(candidate, { workspace, paths, warnings: config.warnings, user: config });
    if (layer === undefined) continue;
    config.files.push(layer.file);
    if (layer.project) config.project = layer.project;
    if (layer.source === "project") config.userProviders = config.providers.map((p) => ({ ...p }));
    mergeLayer(config, layer.values);
    if (layer.values.defaultModel) defaultModelAt = layer.values.defaultModel;
  }
  config.userProviders ??= config.providers.map((provider) => ({ ...provider }));
  applyFlags(config, options.flags ?? {}, workspace);
  if (options.flags?.model === undefined && defaultModelAt !== undefined) {
    checkDefaultModel(config, defaultModelAt);
  }
  return config;
}

async function firstExisting(files: string[]): Promise<string | undefined> {
  for (const file of files) {
    try {
      if ((await Deno.stat(file)).isFile) return file;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return undefined;
}

async function readLayer(
  candidate: { file: string; source: ConfigSource },
  options: { workspace: string; paths: Paths; warnings: ConfigWarning[]; user: ResolvedConfig },
): Promise<FileLayer | undefined> {
  const { file, source } = candidate;
  const { paths, user } = options;
  const project = source === "project";
  const hidden = project
    ? hiddenPaths(paths, user.sandbox.forbidRead)
    : secretPaths(paths, user.sandbox.forbidRead);
  const bytes = project ? await readProjectFile(file, { ...options, hidden }) : await readUserFile(file);
  if (bytes === undefined) return undefined;
  const text = new TextDecoder().decode(bytes);
  const raw = parseToml(text, file);
  const sha256 = await projectConfigDigest(bytes);
  const context: LayerContext = {
    workspace: options.workspace,
    userHome: paths.userHome,
    warnings: options.warnings,
    unused: user.unused,
    digest: sha256,
    hidden,
    file,
    locator: new TomlLocator(text),
    source,
  };
  checkTable(raw, CONFIG_SPEC, context);
  if (!project) return { file, source, values: await layerValues(raw, context) };
  const trust = await projectTrust(paths, options.workspace, sha256);
  const expand = (path: string) => expandPath(path, context);
  const policy = projectPolicy(raw, { user, trust, expand, check: context });
  return {
    file,
    source,
    values: await layerValues(policy.raw, context),
    project: { file, sha256, trust, unlocks: policy.unlocks },
  };
}

async function readUserFile(file: string): Promise<Uint8Array | undefined> {
  try {
    return await Deno.readFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw readError(file, error);
  }
}

/** A cloned repository's reasonix.toml may be a symlink to the user's own files: it is refused then. */
async function readProjectFile(
  file: string,
  options: { workspace: string; hidden: string[]; warnings: ConfigWarning[] },
): Promise<Uint8Array | undefined> {
  let read: ConfinedRead;
  try {
    read = await readConfined(file, { roots: [options.workspace], hidden: options.hidden });
  } catch (error) {
    throw readError(file, error);
  }
  if (read.kind === "text") return read.bytes;
  if (read.kind === "missing") return undefined;
  if (read.kind === "refused") {
    options.warnings.push({ file, line: 1, column: 1, message: describeRefusal(file, read) });
    return undefined;
  }
  throw readError(file, new Error(read.reason));
}

function readError(file: string, error: unknown): ReasonixError {
  return new ReasonixError("config.read", `Cannot read "${file}": ${(error as Error).message}`, {
    cause: error,
  });
}

/** Parses TOML, turning a syntax error into `<file>:<line>:<col>: Cannot parse TOML: ...`. */
export function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
    throw new ConfigError("config.parse", `Cannot parse TOML: ${reason}`, {
      file,
      line: error.line,
      column: error.column,
      cause: error,
    });
  }
}

function mergeLayer(config: ResolvedConfig, values: LayerValues): void {
  if (values.defaultModel) config.defaultModel = values.defaultModel.value;
  if (values.language) config.language = values.language;
  config.providers = mergeProviders(config.providers, values.providers);
  config.mcpServers = mergeByName(config.mcpServers, values.mcpServers);
  for (const [model, override] of Object.entries(values.modelOverrides)) {
    config.modelOverrides[model] = { ...config.modelOverrides[model], ...override };
  }
  const subagents = { ...config.agent.subagents, ...values.agent.subagents };
  Object.assign(config.agent, values.agent);
  if (Object.keys(subagents).length > 0) config.agent.subagents = subagents;
  Object.assign(config.tools, values.tools);
  const { deny, ask, ...permissions } = values.permissions;
  Object.assign(config.permissions, permissions);
  const { forbidRead, ...sandbox } = values.sandbox;
  Object.assign(config.sandbox, sandbox);
  // Restrictions accumulate: a later layer may add deny and ask rules and hidden paths, never drop them.
  if (deny) config.permissions.deny = unique([...config.permissions.deny, ...deny]);
  if (ask) config.permissions.ask = unique([...config.permissions.ask, ...ask]);
  if (forbidRead) config.sandbox.forbidRead = unique([...config.sandbox.forbidRead, ...forbidRead]);
  Object.assign(config.secrets, values.secrets);
  Object.assign(config.network, values.network);
  Object.assign(config.billing, values.billing);
  Object.assign(config.sessions, values.sessions);
  Object.assign(config.ui, values.ui);
  Object.assign(config.serve, values.serve);
}

/** Same name replaces in place; new names are appended, so earlier providers win bare-model lookups. */
export function mergeProviders(base: ProviderConfig[], layer: ProviderConfig[]): ProviderConfig[] {
  return mergeByName(base, layer);
}

export function mergeByName<T extends { name: string }>(base: T[], layer: T[]): T[] {
  const merged = [...base];
  for (const provider of layer) {
    const index = merged.findIndex((existing) => existing.name === provider.name);
    if (index === -1) merged.push(provider);
    else merged[index] = provider;
  }
  return merged;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function applyFlags(config: ResolvedConfig, flags: ConfigFlags, workspace: string): void {
  if (flags.model !== undefined) config.defaultModel = flags.model;
  if (flags.effort !== undefined) {
    try {
      config.agent.effort = normalizeEffort(flags.effort);
    } catch {
      throw flagError("--effort", quoteList(ACCEPTED_EFFORTS), flags.effort);
    }
    // A flag is the top layer, so it also beats `[model_overrides.<model>] effort`.
    for (const override of Object.values(config.modelOverrides)) delete override.effort;
  }
  if (flags.maxSteps !== undefined) {
    if (!Number.isInteger(flags.maxSteps) || flags.maxSteps < 0) {
      throw flagError("--max-steps", "an integer >= 0", String(flags.maxSteps));
    }
    config.agent.maxSteps = flags.maxSteps;
  }
  if (flags.permissionMode !== undefined) {
    const mode = PERMISSION_ALIASES[flags.permissionMode] ?? flags.permissionMode;
    if (!(PERMISSION_MODES as readonly string[]).includes(mode)) {
      throw flagError(
        "--permission-mode",
        quoteList([...PERMISSION_MODES, ...Object.keys(PERMISSION_ALIASES)]),
        flags.permissionMode,
      );
    }
    config.permissions.mode = mode as PermissionMode;
  }
  for (const rule of flags.allowedTools ?? []) {
    const problem = ruleProblem(rule);
    if (problem) {
      throw new ReasonixError(
        "config.invalid",
        `Cannot read "--allowed-tools": ${JSON.stringify(rule)}: ${problem.message}`,
      );
    }
    if (!config.permissions.allow.includes(rule.trim())) config.permissions.allow.push(rule.trim());
  }
  for (const dir of flags.addDirs ?? []) {
    const full = resolve(workspace, dir);
    if (!config.sandbox.allowWrite.includes(full)) config.sandbox.allowWrite.push(full);
  }
}

function flagError(flag: string, expected: string, got: string): ReasonixError {
  return new ReasonixError("config.invalid", `Cannot read "${flag}": expected ${expected}, got "${got}"`);
}

function checkDefaultModel(config: ResolvedConfig, at: NonNullable<LayerValues["defaultModel"]>): void {
  if (config.defaultModel !== at.value) return;
  try {
    resolveModel(config, at.value);
  } catch (error) {
    if (!(error instanceof ReasonixError)) throw error;
    const leftOut = config.unused.find((note) => /^providers\[\d+\]\.kind = /.test(note.key));
    const hint = leftOut
      ? `${leftOut.file}:${leftOut.line}: a provider of kind ${leftOut.key.split(" = ")[1]} is not used yet`
      : error.hint;
    throw new ConfigError("config.invalid", `Cannot read "default_model": ${error.message}`, {
      file: at.file,
      line: at.line,
      column: at.column,
      key: "default_model",
      ...(hint ? { hint } : {}),
      cause: error,
    });
  }
}
