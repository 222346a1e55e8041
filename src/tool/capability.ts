/**
 * @module
 * `use_capability`: the one stable tool through which the model reaches every tool not in the tools
 * array (and later MCP tools and skills), so the request prefix never grows. `list`, `search`,
 * `inspect` and `decline` answer here; `call` is unwrapped by the dispatcher into a call of the inner
 * tool, which is then validated, gated, run and shown exactly like a direct call.
 */
import { z } from "zod";
import { argumentsOf, buildCatalog, type Catalog, searchCatalog, toolNameOf } from "./catalog.ts";
import type { ToolRegistry } from "./registry.ts";
import { READ_SKILL, RUN_SKILL } from "./skill/catalog.ts";
import { defineTool, ToolError, type ToolSpec } from "./tool.ts";

export const USE_CAPABILITY = "use_capability";

const LIST_LIMIT = 50;
const SEARCH_LIMIT = 5;
const SEARCH_MAX = 8;

const DESCRIPTION =
  `Reach the tools not in your tool list. "call": capability_id "tool:<name>" with its arguments object. "inspect": a capability's full schema; "search": find one by purpose (query); "list": the catalogue (cursor, limit); "decline": none fits (reason). Calls are checked and approved like direct ones.`;

const parameters = z.object({
  action: z.enum(["list", "search", "inspect", "call", "decline"]),
  capability_id: z.string().optional().describe('For call and inspect, e.g. "tool:glob"'),
  arguments: z.record(z.string(), z.unknown()).optional().describe("For call"),
  query: z.string().optional().describe("For search"),
  cursor: z.string().optional().describe("For list: the previous next_cursor"),
  limit: z.number().int().min(1).max(100).optional().describe("list: 1-100, search: 1-8"),
  reason: z.string().optional().describe("For decline"),
});

export type CapabilityArgs = z.infer<typeof parameters>;

/** The proxy over `registry`'s proxied tools; register it in the same registry. */
export function capabilityTool(registry: ToolRegistry): ToolSpec<CapabilityArgs> {
  let catalog: { key: string; catalog: Catalog } | undefined;
  const current = () => {
    // Skills are read on each answer (a /reload changes them without registering anything).
    const key = `${registry.revision}\n${JSON.stringify(registry.listed())}`;
    if (catalog?.key !== key) catalog = { key, catalog: buildCatalog(registry) };
    return catalog.catalog;
  };
  return defineTool({
    name: USE_CAPABILITY,
    description: DESCRIPTION,
    parameters,
    readOnly: true,
    async execute(args, ctx) {
      // Sources register what became available since (a lazy MCP server starts here).
      if (args.action !== "decline") await refreshed(registry, ctx.signal);
      switch (args.action) {
        case "list":
          return { output: listPage(current(), registry, args) };
        case "search":
          return { output: searchResult(current(), registry, args) };
        case "inspect":
          return { output: inspectResult(current(), registry, args) };
        case "decline":
          return { output: "Noted: no capability used." };
        case "call":
          // The dispatcher unwraps every call; reaching here means it was asked to judge the wrapper.
          throw new ToolError("tool.invalid_args", "use_capability cannot run a call on its own");
      }
    },
  });
}

/** `registry.refresh()`, given up when the turn is interrupted (a starting server may take its time). */
export async function refreshed(registry: ToolRegistry, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let stop: () => void = () => {};
  const aborted = new Promise<void>((resolve) => {
    stop = () => signal.removeEventListener("abort", onAbort);
    const onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([registry.refresh(), aborted]);
  } finally {
    stop();
  }
}

/** The inner call a `use_capability` call stands for: its tool name and arguments (JSON). */
export type CapabilityTarget =
  | { ok: true; name: string; arguments: string }
  | { ok: false; code: string; message: string };

/**
 * Unwraps `{action:"call", capability_id:"tool:<name>", arguments}`; null when the call is no
 * well-formed `call` action (the proxy itself then reports what is wrong with it).
 */
export function capabilityTarget(argumentsJson: string): CapabilityTarget | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch {
    return null;
  }
  const checked = parameters.safeParse(parsed);
  if (!checked.success || checked.data.action !== "call") return null;
  const id = checked.data.capability_id;
  if (id === undefined || id.trim() === "") {
    return {
      ok: false,
      code: "tool.invalid_args",
      message: `use_capability "call" needs capability_id, e.g. "tool:grep"; action "list" shows the ids`,
    };
  }
  const skill = /^skill:(.+)$/.exec(id.trim())?.[1];
  if (skill !== undefined) {
    // The Go Reasonix's `skill:<n>` id: loads the skill; a subagent skill answers with the run_skill call to make.
    // With `continue_from` it continues that run of a subagent skill (run_skill).
    const task = checked.data.arguments?.arguments;
    const from = checked.data.arguments?.continue_from;
    const args = {
      name: skill,
      ...(typeof task === "string" ? { arguments: task } : {}),
      ...(typeof from === "string" ? { continue_from: from } : {}),
    };
    return {
      ok: true,
      name: typeof from === "string" ? RUN_SKILL : READ_SKILL,
      arguments: JSON.stringify(args),
    };
  }
  const name = toolNameOf(id.trim());
  if (name === null) return unknownCapability(id);
  if (name === USE_CAPABILITY) {
    return { ok: false, code: "tool.invalid_args", message: "use_capability cannot call itself" };
  }
  return { ok: true, name, arguments: JSON.stringify(checked.data.arguments ?? {}) };
}

/** A stored call as the faces show it: a proxied call as the tool it runs, the way it was shown live. */
export function shownCall(fn: { name: string; arguments: string }): { name: string; arguments: string } {
  if (fn.name !== USE_CAPABILITY) return fn;
  const target = capabilityTarget(fn.arguments);
  return target?.ok ? { name: target.name, arguments: target.arguments } : fn;
}

export function unknownCapability(id: string): { ok: false; code: string; message: string } {
  return {
    ok: false,
    code: "capability.unknown",
    message:
      `There is no capability "${id}"; use_capability action "list" or "search" shows the ones there are`,
  };
}

/** What a proxied call's bad arguments are checked against, for the error the model reads. */
export function argumentSummary(registry: ToolRegistry, name: string): string {
  const schema = registry.parametersOf(name);
  const properties = (schema?.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown }>;
  const required = registry.requiredArgs(name);
  const parts = Object.entries(properties).map(([arg, node]) => {
    const type = Array.isArray(node.enum)
      ? node.enum.map((value) => JSON.stringify(value)).join("|")
      : typeof node.type === "string"
      ? node.type
      : "value";
    return `${arg}${required.includes(arg) ? "*" : ""} (${type})`;
  });
  return `Arguments of "${name}" (* = required): ${parts.length > 0 ? parts.join(", ") : "none"}. ` +
    `use_capability action "inspect" shows the full schema`;
}

function listPage(catalog: Catalog, registry: ToolRegistry, args: CapabilityArgs): string {
  const start = args.cursor ? Number.parseInt(args.cursor, 10) : 0;
  if (!Number.isInteger(start) || start < 0 || start > catalog.entries.length) {
    throw new ToolError(
      "tool.invalid_args",
      `Cannot read cursor "${args.cursor}": pass next_cursor as given`,
    );
  }
  const end = start + (args.limit ?? LIST_LIMIT);
  const page = catalog.entries.slice(start, end);
  return JSON.stringify({
    catalog_version: catalog.version,
    servers: registry.servers(),
    capabilities: page,
    next_cursor: end < catalog.entries.length ? String(end) : null,
  });
}

function searchResult(catalog: Catalog, registry: ToolRegistry, args: CapabilityArgs): string {
  if (!args.query?.trim()) throw new ToolError("tool.invalid_args", `use_capability "search" needs a query`);
  const limit = Math.min(args.limit ?? SEARCH_LIMIT, SEARCH_MAX);
  const found = searchCatalog(catalog, args.query, limit).map((entry) => {
    const { names, required } = argumentsOf(registry, entry.name, entry.kind);
    return { ...entry, argument_names: names, required_arguments: required };
  });
  return JSON.stringify({ catalog_version: catalog.version, capabilities: found });
}

function inspectResult(catalog: Catalog, registry: ToolRegistry, args: CapabilityArgs): string {
  const id = args.capability_id?.trim() ?? "";
  if (id === "") throw new ToolError("tool.invalid_args", `use_capability "inspect" needs capability_id`);
  const entry = catalog.entries.find((candidate) => candidate.id === id);
  if (!entry) {
    const unknown = unknownCapability(id);
    throw new ToolError(unknown.code, unknown.message);
  }
  if (entry.kind === "skill") {
    const { status: _status, ...shown } = entry;
    const call = `call it with {"arguments": "<the task or its arguments>"}`;
    return JSON.stringify({ catalog_version: catalog.version, ...shown, call });
  }
  const spec = registry.get(entry.name)!;
  return JSON.stringify({
    catalog_version: catalog.version,
    id: entry.id,
    kind: entry.kind,
    name: entry.name,
    read_only: entry.read_only,
    description: spec.description,
    parameters: registry.parametersOf(entry.name),
  });
}
