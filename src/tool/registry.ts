/**
 * @module
 * The tools the model sees. Each schema is converted to JSON Schema once, at registration, and frozen
 * as canonical bytes: the tools array is then byte-identical on every request, whatever the order
 * the tools were registered in, which keeps the provider's prefix cache warm. Only the direct tools are
 * sent; the proxied ones are reached through `use_capability` (src/tool/capability.ts), so a new
 * capability never grows the tools array.
 */
import { z } from "zod";
import { canonicalJson } from "../lib/canonical_json.ts";
import { ReasonixError } from "../lib/errors.ts";
import type { ToolSpec } from "./tool.ts";

export interface ToolRegistryOptions {
  /** Tool names to expose; empty or absent exposes every registered tool. */
  enabled?: readonly string[];
  /** Tools left out of the tools array and reached through `use_capability`; the rest are sent. */
  proxied?: readonly string[];
}

/** How one tool joins a registry after it was built (MCP tools). */
export interface RegisterOptions {
  /** Reached only through `use_capability`: the tools array does not change. */
  proxied?: boolean;
  /** The frozen `{type:"function",...}` JSON to send, as a resumed session recorded it. */
  json?: string;
}

/** Where more proxied tools come from: `use_capability` asks it before answering (starts lazy servers). */
export interface CapabilitySource {
  /** Registers whatever tools became available; resolves when done (bounded by the source). */
  refresh(): Promise<void>;
  /** The servers behind the tools, for `list`. */
  servers(): { name: string; status: string }[];
}

/** A `use_capability` entry that is no tool: a skill (`skill:<name>`, CONTRACTS §2.2). */
export interface ListedCapability {
  id: string;
  kind: "skill";
  name: string;
  read_only: boolean;
  description: string;
}

/** Tools `[tools].enabled` never filters out (CONTRACTS §2.1). */
const ALWAYS_ENABLED: ReadonlySet<string> = new Set(["ask", "use_capability", "submit_plan", "update_goal"]);

interface Entry {
  spec: ToolSpec;
  /** Canonical `{type:"function",function:{...}}` JSON, frozen at registration. */
  json: string;
  required: readonly string[];
}

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Keys zod emits that say nothing to the model. */
const DROPPED_KEYS = new Set(["$schema", "$id", "~standard"]);
const NAMED_SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);

let conversions = 0;

/** How many schemas have been converted to JSON Schema in this process (for tests). */
export function schemaConversions(): number {
  return conversions;
}

export class ToolRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #seen = new Set<string>();
  readonly #enabled: ReadonlySet<string> | null;
  readonly #proxied: Set<string>;
  readonly #sources: CapabilitySource[] = [];
  readonly #listed: (() => readonly ListedCapability[])[] = [];
  #toolsJson: string | null = null;
  #revision = 0;

  constructor(specs: readonly ToolSpec[] = [], options: ToolRegistryOptions = {}) {
    const enabled = options.enabled ?? [];
    this.#enabled = enabled.length > 0 ? new Set(enabled) : null;
    this.#proxied = new Set(options.proxied ?? []);
    for (const spec of specs) this.register(spec);
  }

  /** Adds a tool; returns false when the `enabled` filter leaves it out. */
  register<Args>(tool: ToolSpec<Args>, options: RegisterOptions = {}): boolean {
    const spec = tool as unknown as ToolSpec;
    if (!NAME_PATTERN.test(spec.name)) {
      throw new ReasonixError(
        "tool.invalid_name",
        `Cannot register tool "${spec.name}": names use 1-64 letters, digits, "_" or "-"`,
      );
    }
    if (this.#seen.has(spec.name)) {
      throw new ReasonixError("tool.duplicate", `Cannot register tool "${spec.name}": the name is taken`);
    }
    this.#seen.add(spec.name);
    if (this.#enabled && !this.#enabled.has(spec.name) && !ALWAYS_ENABLED.has(spec.name)) return false;
    const entry = options.json === undefined ? freezeEntry(spec) : recordedEntry(spec, options.json);
    this.#entries.set(spec.name, Object.freeze(entry));
    if (options.proxied) this.#proxied.add(spec.name);
    else this.#toolsJson = null;
    this.#revision++;
    return true;
  }

  /** Whether `name` was ever registered (also when the `enabled` filter left it out). */
  has(name: string): boolean {
    return this.#seen.has(name);
  }

  /** Counts registrations: a catalogue built at another revision is stale. */
  get revision(): number {
    return this.#revision;
  }

  addSource(source: CapabilitySource): void {
    this.#sources.push(source);
  }

  /** Catalogue entries that are no tool (skills): `use_capability` lists them, read on every answer. */
  addListed(listed: () => readonly ListedCapability[]): void {
    this.#listed.push(listed);
  }

  listed(): ListedCapability[] {
    return this.#listed.flatMap((listed) => listed());
  }

  /** Lets every source register what became available (`use_capability` calls it before answering). */
  async refresh(): Promise<void> {
    await Promise.all(this.#sources.map((source) => source.refresh()));
  }

  /** The servers the sources stand for, sorted by name. */
  servers(): { name: string; status: string }[] {
    return this.#sources.flatMap((source) => source.servers()).sort((a, b) => compareNames(a.name, b.name));
  }

  get(name: string): ToolSpec | undefined {
    return this.#entries.get(name)?.spec;
  }

  /** Enabled tool names, sorted. */
  names(): string[] {
    return [...this.#entries.keys()].sort(compareNames);
  }

  /** Enabled tools, sorted by name. */
  specs(): ToolSpec[] {
    return this.names().map((name) => this.#entries.get(name)!.spec);
  }

  /** Enabled tools sent in the tools array, sorted. */
  directNames(): string[] {
    return this.names().filter((name) => !this.#proxied.has(name));
  }

  /** Enabled tools reached only through `use_capability`, sorted. */
  proxiedNames(): string[] {
    return this.names().filter((name) => this.#proxied.has(name));
  }

  isProxied(name: string): boolean {
    return this.#proxied.has(name) && this.#entries.has(name);
  }

  /** The JSON Schema of a tool's parameters, as frozen at registration. */
  parametersOf(name: string): Record<string, unknown> | undefined {
    const json = this.#entries.get(name)?.json;
    return json === undefined ? undefined : JSON.parse(json).function.parameters;
  }

  /** The frozen JSON of one tool's `{type:"function",function:{...}}` entry. */
  toolJson(name: string): string | undefined {
    return this.#entries.get(name)?.json;
  }

  /** Top-level required argument names of a tool, from its JSON Schema. */
  requiredArgs(name: string): readonly string[] {
    return this.#entries.get(name)?.required ?? [];
  }

  /** The JSON array of the enabled direct tools sorted by name, spliced into requests verbatim. */
  toolsJson(): string {
    this.#toolsJson ??= `[${this.directNames().map((name) => this.#entries.get(name)!.json).join(",")}]`;
    return this.#toolsJson;
  }
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function freezeEntry(spec: ToolSpec): Entry {
  if (spec.inputSchema !== undefined) {
    // A JSON Schema given as is (an MCP server's): canonicalised once, never converted or cleaned.
    const parameters = spec.inputSchema;
    const json = canonicalJson({
      type: "function",
      function: { name: spec.name, description: spec.description, parameters },
    });
    return { spec, json, required: Object.freeze(requiredOf(parameters)) };
  }
  let schema: unknown;
  try {
    schema = z.toJSONSchema(spec.parameters, { io: "input" });
  } catch (error) {
    throw new ReasonixError(
      "tool.invalid_schema",
      `Cannot register tool "${spec.name}": its parameters have no JSON Schema form`,
      { cause: error },
    );
  }
  conversions++;
  const parameters = cleanSchema(schema);
  const json = canonicalJson({
    type: "function",
    function: { name: spec.name, description: spec.description, parameters },
  });
  return { spec, json, required: Object.freeze(requiredOf(parameters)) };
}

/**
 * Drops meta keys, the safe-integer bounds zod adds to every `.int()`, the "not empty" bounds
 * (`minLength: 1`, `exclusiveMinimum: 0`), string-only `propertyNames` and an empty `additionalProperties`:
 * bytes the model never needs. Validation still enforces them.
 */
function cleanSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(cleanSchema);
  if (node === null || typeof node !== "object") return node;
  const record = node as Record<string, unknown>;
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (DROPPED_KEYS.has(key) || value === undefined) continue;
    if (record.type === "integer" && isSafeIntegerBound(key, value)) continue;
    if (isNotEmptyBound(key, value)) continue;
    if (key === "propertyNames" && isStringType(value)) continue;
    if (key === "additionalProperties" && isEmptyObject(value)) continue;
    clean[key] = NAMED_SCHEMA_MAPS.has(key) ? cleanNamedSchemas(value) : cleanSchema(value);
  }
  return clean;
}

/** In `properties` and the like the keys are argument names, never meta keys. */
function cleanNamedSchemas(map: unknown): unknown {
  if (map === null || typeof map !== "object" || Array.isArray(map)) return cleanSchema(map);
  const clean: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(map)) clean[name] = cleanSchema(schema);
  return clean;
}

function isSafeIntegerBound(key: string, value: unknown): boolean {
  return (key === "maximum" && value === Number.MAX_SAFE_INTEGER) ||
    (key === "minimum" && value === Number.MIN_SAFE_INTEGER);
}

/** `additionalProperties: {}` allows anything, as its absence does. */
function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
    Object.keys(value).length === 0;
}

/** JSON object keys are always strings: `z.record(z.string(), ...)` says nothing more. */
function isStringType(value: unknown): boolean {
  return value !== null && typeof value === "object" && Object.keys(value).length === 1 &&
    (value as { type?: unknown }).type === "string";
}

function isNotEmptyBound(key: string, value: unknown): boolean {
  return (key === "minLength" && value === 1) || (key === "exclusiveMinimum" && value === 0);
}

function recordedEntry(spec: ToolSpec, json: string): Entry {
  const parameters = (JSON.parse(json) as { function?: { parameters?: unknown } }).function?.parameters;
  return { spec, json, required: Object.freeze(requiredOf(parameters)) };
}

function requiredOf(schema: unknown): string[] {
  const required = (schema as { required?: unknown } | null)?.required;
  return Array.isArray(required) ? required.filter((name) => typeof name === "string") : [];
}
