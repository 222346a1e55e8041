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

/** Tools `[tools].enabled` never filters out (CONTRACTS §2.1). */
const ALWAYS_ENABLED: ReadonlySet<string> = new Set(["ask", "use_capability"]);

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
  readonly #proxied: ReadonlySet<string>;
  #toolsJson: string | null = null;

  constructor(specs: readonly ToolSpec[] = [], options: ToolRegistryOptions = {}) {
    const enabled = options.enabled ?? [];
    this.#enabled = enabled.length > 0 ? new Set(enabled) : null;
    this.#proxied = new Set(options.proxied ?? []);
    for (const spec of specs) this.register(spec);
  }

  /** Adds a tool; returns false when the `enabled` filter leaves it out. */
  register<Args>(tool: ToolSpec<Args>): boolean {
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
    this.#entries.set(spec.name, Object.freeze(freezeEntry(spec)));
    this.#toolsJson = null;
    return true;
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

function requiredOf(schema: unknown): string[] {
  const required = (schema as { required?: unknown } | null)?.required;
  return Array.isArray(required) ? required.filter((name) => typeof name === "string") : [];
}
