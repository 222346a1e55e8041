/**
 * @module
 * The shape of a Reasonix TOML file as data: which keys exist, their types, and which Go Reasonix keys
 * are accepted but not used yet (listed in go_keys.ts). `checkTable` walks a parsed file against it,
 * reports each problem at the key's own line and column, and rewrites Go's spellings of values to ours.
 */
import { z } from "zod";
import { parse } from "smol-toml";
import { ReasonixError } from "../lib/errors.ts";
import { ACCEPTED_EFFORTS } from "../provider/effort.ts";
import { ConfigError, describeValue } from "./errors.ts";
import type { KeyPath, TomlLocator } from "./_locate.ts";
import { GO_VALUES, GO_VALUES_NOT_USED_YET, NOT_USED_YET, RETIRED } from "./go_keys.ts";
import { type ConfigKeyNote, type ConfigWarning, DELIVERY_MODES } from "./types.ts";

export type LeafType = "string" | "integer" | "number" | "boolean" | "string[]";

export interface LeafSpec {
  kind: "leaf";
  type: LeafType;
  /** Completes "expected ..." when the value has the right type but is out of range. */
  expected: string;
  schema: z.ZodType;
  /** Go Reasonix spellings of values, and the value each stands for here (go_keys.ts). */
  goValues?: Readonly<Record<string, unknown>>;
  /** Go values whose meaning Reasonix does not implement yet: noted, and the key keeps its default. */
  valuesNotUsedYet?: readonly unknown[];
}

export interface TableSpec {
  kind: "table";
  fields: Record<string, Spec>;
  /** The spec of every key of a map-like table (`[model_overrides.<model>]`). */
  each?: Spec;
}

export interface TablesSpec {
  kind: "tables";
  item: TableSpec;
}

/**
 * `unused`: a Go Reasonix key accepted but not used yet (listed by doctor and `config path`, never
 * warned); `ignored`: a key Go retired, accepted silently.
 */
export interface MarkerSpec {
  kind: "unused" | "ignored";
}

export type Spec = LeafSpec | TableSpec | TablesSpec | MarkerSpec;

export const PERMISSION_MODES = ["ask", "auto", "yolo", "plan"] as const;
export const UI_LANGUAGES = ["auto", "en", "zh-CN", "zh-TW"] as const;
export const REASONING_LANGUAGES = ["auto", "zh", "en"] as const;
export const THEMES = ["auto", "dark", "light"] as const;
export const PERMISSION_ALIASES: Readonly<Record<string, (typeof PERMISSION_MODES)[number]>> = {
  "read-only": "ask",
  "workspace-write": "auto",
  "danger-full-access": "yolo",
};

const UNUSED: MarkerSpec = { kind: "unused" };
const IGNORED: MarkerSpec = { kind: "ignored" };

function leaf(type: LeafType, schema: z.ZodType, expected: string): LeafSpec {
  return { kind: "leaf", type, schema, expected };
}

function text(): LeafSpec {
  return leaf("string", z.string(), "a string");
}

function nonEmpty(): LeafSpec {
  return leaf("string", z.string().trim().min(1), "a non-empty string");
}

function integer(min: number, max = Number.MAX_SAFE_INTEGER): LeafSpec {
  const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
  return leaf("integer", z.number().int().min(min).max(max), `an integer ${range}`);
}

function ratio(min: number, max: number): LeafSpec {
  return leaf("number", z.number().min(min).max(max), `a number from ${min} to ${max}`);
}

function seconds(): LeafSpec {
  return leaf("number", z.number().positive().max(86_400), "a number of seconds above 0, at most 86400");
}

function price(): LeafSpec {
  return leaf("number", z.number().min(0), "a number >= 0");
}

function oneOf(values: readonly string[], goValues?: Readonly<Record<string, unknown>>): LeafSpec {
  const spec = leaf("string", z.enum(values as [string, ...string[]]), `one of ${quoteList(values)}`);
  return goValues ? { ...spec, goValues } : spec;
}

function boolean(): LeafSpec {
  return leaf("boolean", z.boolean(), "a boolean");
}

function strings(): LeafSpec {
  return leaf("string[]", z.array(z.string()), "an array of strings");
}

function commandPrefixes(): LeafSpec {
  return leaf("string[]", z.array(z.string().trim().min(1)), "an array of non-empty command prefixes");
}

function url(): LeafSpec {
  const schema = z.string().refine((value) => /^https?:$/.test(safeUrl(value)?.protocol ?? ""));
  return leaf("string", schema, "an http(s) URL");
}

function envName(): LeafSpec {
  return leaf("string", z.string().regex(/^([A-Za-z_][A-Za-z0-9_]*)?$/), "an environment variable name");
}

function table(fields: Record<string, Spec>, each?: Spec): TableSpec {
  return { kind: "table", fields, each };
}

function marks(kind: MarkerSpec, names: readonly string[]): Record<string, Spec> {
  return Object.fromEntries(names.map((name) => [name, kind]));
}

export const PROVIDER_SPEC: TableSpec = table({
  name: nonEmpty(),
  kind: text(),
  base_url: url(),
  model: nonEmpty(),
  models: strings(),
  default: text(),
  api_key_env: envName(),
  context_window: integer(0),
  cache_ttl_minutes: integer(1),
  max_output_tokens: integer(Number.MIN_SAFE_INTEGER),
  reasoning_protocol: text(),
  price: table({
    cache_hit: price(),
    input: price(),
    output: price(),
    currency: oneOf(["CNY", "USD"], GO_VALUES.priceCurrency),
  }),
  ...marks(UNUSED, NOT_USED_YET.provider),
});

/** One `[[plugins]]` entry: an MCP server (src/config/_mcp_servers.ts reads it). */
export const PLUGIN_SPEC: TableSpec = table({
  name: nonEmpty(),
  type: oneOf(["stdio", "http", "sse"]),
  command: text(),
  args: strings(),
  env: table({}, text()),
  url: text(),
  headers: table({}, text()),
  startup_timeout_seconds: seconds(),
  call_timeout_seconds: seconds(),
  tool_timeout_seconds: table({}, seconds()),
  auto_start: boolean(),
  client_id: nonEmpty(),
  client_secret: nonEmpty(),
  callback_port: integer(1, 65535),
  scopes: strings(),
  client_metadata_url: url(),
});

export const CONFIG_SPEC: TableSpec = table({
  default_model: nonEmpty(),
  language: oneOf(UI_LANGUAGES, GO_VALUES.language),
  ...marks(IGNORED, RETIRED.root),
  agent: table({
    system_prompt: text(),
    system_prompt_file: nonEmpty(),
    max_steps: integer(0),
    effort: oneOf(ACCEPTED_EFFORTS),
    compact_ratio: ratio(0.3, 0.85),
    compact_force_ratio: ratio(0.3, 0.98),
    tool_result_snip_ratio: ratio(0.2, 0.85),
    reasoning_language: oneOf(REASONING_LANGUAGES),
    subagent_model: nonEmpty(),
    subagent_models: table({}, nonEmpty()),
    subagent_effort: oneOf(ACCEPTED_EFFORTS),
    subagent_efforts: table({}, oneOf(ACCEPTED_EFFORTS)),
    max_subagent_depth: integer(1, 32),
    max_subagent_concurrency: integer(1, 32),
    max_parallel_writers: integer(1, 32),
    delivery: oneOf(DELIVERY_MODES),
    verify_commands: commandPrefixes(),
    ...marks(UNUSED, NOT_USED_YET.agent),
    ...marks(IGNORED, RETIRED.agent),
  }),
  tools: table({
    enabled: strings(),
    bash_timeout_seconds: { ...integer(1), valuesNotUsedYet: GO_VALUES_NOT_USED_YET.bashTimeoutSeconds },
    output_budget_bytes: integer(1),
    web_fetch_allow_private: strings(),
    mcp_startup_timeout_seconds: seconds(),
    mcp_call_timeout_seconds: seconds(),
    ...marks(UNUSED, NOT_USED_YET.tools),
  }),
  permissions: table({
    mode: oneOf([...PERMISSION_MODES, ...Object.keys(PERMISSION_ALIASES)], GO_VALUES.permissionMode),
    allow: strings(),
    ask: strings(),
    deny: strings(),
    allow_dynamic_bash: boolean(),
  }),
  sandbox: table({
    allow_write: strings(),
    forbid_read: strings(),
    network: boolean(),
    bash: { ...boolean(), goValues: GO_VALUES.sandboxBash },
    require: boolean(),
    protect_git: boolean(),
    ...marks(UNUSED, NOT_USED_YET.sandbox),
  }),
  secrets: table({
    protect_sensitive_files: boolean(),
    env_allow: strings(),
    ...marks(UNUSED, NOT_USED_YET.secrets),
  }),
  network: table({
    max_retries: integer(0, 20),
    retry_base_ms: integer(0),
    connect_timeout_seconds: seconds(),
    first_byte_timeout_seconds: seconds(),
    idle_timeout_seconds: seconds(),
    ...marks(UNUSED, NOT_USED_YET.network),
  }),
  billing: table({ display_currency: oneOf(["auto", "CNY", "USD"]) }),
  sessions: table({ retention_days: integer(1) }),
  skills: table({
    paths: strings(),
    excluded_paths: strings(),
    disabled_skills: strings(),
    disable_implicit_invocation: boolean(),
    max_depth: integer(1, 10),
  }),
  ui: table({
    theme: oneOf(THEMES),
    show_turn_usage: boolean(),
    show_reasoning: boolean(),
    ...marks(UNUSED, NOT_USED_YET.ui),
  }),
  serve: table({
    addr: nonEmpty(),
    auth_mode: oneOf(["none", "token", "password"]),
    token: nonEmpty(),
    password_hash: nonEmpty(),
    behind_proxy: boolean(),
  }),
  model_overrides: table(
    {},
    table({
      context_window: integer(0),
      max_output_tokens: integer(Number.MIN_SAFE_INTEGER),
      effort: oneOf(ACCEPTED_EFFORTS),
    }),
  ),
  providers: { kind: "tables", item: PROVIDER_SPEC },
  plugins: { kind: "tables", item: PLUGIN_SPEC },
  ...marks(UNUSED, NOT_USED_YET.root),
});

export interface CheckContext {
  file: string;
  locator: TomlLocator;
  warnings: ConfigWarning[];
  /** Where the Go keys that are accepted but not used yet go. */
  unused: ConfigKeyNote[];
  /** SHA-256 of the file's bytes: an unknown key is warned about once per content of the file. */
  digest?: string;
}

/**
 * Throws the first wrong value as a ConfigError; collects unknown keys as warnings and the Go keys not
 * used yet as notes. A Go spelling of a value is replaced in `value` by the value it stands for.
 */
export function checkTable(
  value: unknown,
  spec: TableSpec,
  options: CheckContext & { path?: KeyPath },
): void {
  const path = options.path ?? [];
  if (!isTable(value)) throw typeError(options, path, "a table", value);
  for (const [key, child] of Object.entries(value)) {
    const childPath = [...path, key];
    const childSpec = Object.hasOwn(spec.fields, key) ? spec.fields[key] : spec.each;
    if (childSpec === undefined) unknownKey(options, childPath);
    else if (childSpec.kind === "unused") noteUnused(options, childPath);
    else if (childSpec.kind === "leaf" && childSpec.valuesNotUsedYet?.includes(child)) {
      noteUnused(options, childPath, child);
      delete value[key];
    } else if (childSpec.kind !== "ignored") {
      value[key] = checkValue(child, childSpec, { ...options, path: childPath });
    }
  }
}

function checkValue(value: unknown, spec: Spec, options: CheckContext & { path: KeyPath }): unknown {
  if (spec.kind === "table") {
    checkTable(value, spec, options);
    return value;
  }
  if (spec.kind === "tables") {
    if (!Array.isArray(value)) throw typeError(options, options.path, "an array of tables", value);
    value.forEach((item, index) =>
      checkTable(item, spec.item, { ...options, path: [...options.path, index] })
    );
    return value;
  }
  if (spec.kind !== "leaf") return value;
  if (typeof value === "string" && spec.goValues && Object.hasOwn(spec.goValues, value)) {
    return spec.goValues[value];
  }
  const mismatch = typeMismatch(value, spec.type);
  if (mismatch !== undefined) {
    const at = mismatch.index === undefined ? options.path : [...options.path, mismatch.index];
    const got = mismatch.index === undefined ? value : (value as unknown[])[mismatch.index];
    throw typeError(options, at, mismatch.expected + goSpellings(spec), got);
  }
  if (!spec.schema.safeParse(value).success) {
    throw typeError(options, options.path, spec.expected + goSpellings(spec), value);
  }
  return value;
}

function goSpellings(spec: LeafSpec): string {
  const names = Object.keys(spec.goValues ?? {}).filter((name) => name !== "");
  if (names.length === 0) return "";
  return spec.type === "string" ? `, or ${quoteList(names)}` : ` or one of ${quoteList(names)}`;
}

function unknownKey(options: CheckContext, path: KeyPath): void {
  const at = options.locator.keyPosition(path);
  options.warnings.push({
    file: options.file,
    ...at,
    message: `unknown key "${displayKey(path)}"`,
    ...(options.digest ? { once: options.digest } : {}),
  });
}

/** Records a Go key that is accepted but not used yet (also used for provider kinds and protocols). */
export function noteUnused(options: CheckContext, path: KeyPath, value?: unknown): void {
  const key = displayKey(path) + (value === undefined ? "" : ` = ${JSON.stringify(value)}`);
  options.unused.push({ file: options.file, ...options.locator.keyPosition(path), key });
}

function typeMismatch(value: unknown, type: LeafType): { expected: string; index?: number } | undefined {
  if (type === "string") return typeof value === "string" ? undefined : { expected: "a string" };
  if (type === "boolean") return typeof value === "boolean" ? undefined : { expected: "a boolean" };
  if (type === "integer" || type === "number") {
    return typeof value === "number" ? undefined : { expected: "a number" };
  }
  if (!Array.isArray(value)) return { expected: "an array of strings" };
  const index = value.findIndex((item) => typeof item !== "string");
  return index === -1 ? undefined : { expected: "a string", index };
}

export function configError(
  options: CheckContext,
  path: KeyPath,
  detail: string,
  code: "config.type" | "config.invalid" = "config.invalid",
): ConfigError {
  const at = options.locator.keyPosition(path);
  return new ConfigError(code, detail, { file: options.file, ...at, key: displayKey(path) });
}

function typeError(options: CheckContext, path: KeyPath, expected: string, value: unknown): ConfigError {
  const detail = `Cannot read "${displayKey(path)}": expected ${expected}, got ${describeValue(value)}`;
  return configError(options, path, detail, "config.type");
}

export function warn(options: CheckContext, path: KeyPath, message: string): void {
  options.warnings.push({ file: options.file, ...options.locator.keyPosition(path), message });
}

/** `tools.enabled`, `providers[1].base_url`, `model_overrides."v4.1".effort` */
export function displayKey(path: KeyPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else {out += (out === "" ? "" : ".") +
        (/^[A-Za-z0-9_-]+$/.test(segment) ? segment : JSON.stringify(segment));}
  }
  return out;
}

export function isTable(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
}

/** The leaf spec a `config set` key names, or a ReasonixError saying why it cannot be set. */
export function leafFor(segments: readonly string[]): LeafSpec {
  let spec: Spec | undefined = CONFIG_SPEC;
  for (const segment of segments) {
    if (spec?.kind === "unused" || spec?.kind === "ignored") break;
    if (spec?.kind !== "table") {
      spec = undefined;
      break;
    }
    spec = Object.hasOwn(spec.fields, segment) ? spec.fields[segment] : spec.each;
  }
  const key = segments.join(".");
  if (spec?.kind === "leaf") return spec;
  if (spec?.kind === "tables") {
    throw new ReasonixError("config.invalid", `Cannot set "${key}": edit [[${key}]] entries in the file`);
  }
  if (spec?.kind === "unused") {
    throw new ReasonixError("config.invalid", `Cannot set "${key}": it is accepted but not used yet`);
  }
  if (spec?.kind === "table") throw new ReasonixError("config.invalid", `Cannot set "${key}": it is a table`);
  throw new ReasonixError("config.unknown_key", `Cannot set "${key}": unknown key`);
}

/** Reads a command-line value as the key's type, then checks it against the key's schema. */
export function parseLeafInput(
  key: string,
  spec: LeafSpec,
  raw: string,
): string | number | boolean | string[] {
  const goValue = spec.goValues?.[raw.trim()];
  if (typeof goValue === "string" || typeof goValue === "boolean") return goValue;
  const value = coerce(spec.type, raw.trim());
  if (value === undefined || typeMismatch(value, spec.type) || !spec.schema.safeParse(value).success) {
    const expected = value === undefined ? typeName(spec.type) : spec.expected;
    throw new ReasonixError(
      "config.invalid",
      `Cannot set "${key}": expected ${expected}, got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

function coerce(type: LeafType, raw: string): string | number | boolean | string[] | undefined {
  if (type === "integer" || type === "number") {
    const number = raw === "" ? NaN : Number(raw.replaceAll("_", ""));
    return Number.isFinite(number) ? number : undefined;
  }
  if (type === "boolean") {
    if (/^(true|yes|on|1)$/i.test(raw)) return true;
    return /^(false|no|off|0)$/i.test(raw) ? false : undefined;
  }
  if (type === "string[]") {
    if (!raw.startsWith("[")) return raw === "" ? [] : raw.split(",").map((item) => item.trim());
    try {
      const parsed = parse(`value = ${raw}`).value;
      return Array.isArray(parsed) ? parsed as string[] : undefined;
    } catch {
      return undefined;
    }
  }
  return raw;
}

function typeName(type: LeafType): string {
  return { string: "a string", integer: "a number", number: "a number", boolean: "a boolean" }[
    type as "string"
  ] ?? "an array of strings";
}

export function quoteList(values: readonly string[]): string {
  return values.map((value) => `"${value}"`).join(", ");
}

export function safeUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
