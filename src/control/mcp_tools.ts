/**
 * @module
 * The session's MCP tools in its registry, without ever moving the request prefix. When the first
 * request is built (`ready`), the servers connected by then (after a short grace for those still
 * starting) put their tools in the tools array, and that array is frozen for the session; a resumed
 * session puts back exactly the MCP tools it recorded, with their recorded bytes. Every tool that comes
 * later (a server connecting late, an `auto_start = false` server started on first use, a
 * `tools/list_changed` addition) joins as a proxied tool, reached through `use_capability`, and the
 * next turn's tail says so.
 */
import { canonicalJson } from "../lib/canonical_json.ts";
import { withinTime } from "../lib/within_time.ts";
import type { McpManager } from "../mcp/manager.ts";
import { MCP_PREFIX, mcpToolName, serverGroup, uniqueToolName } from "../mcp/tool_names.ts";
import { loadArgumentValidator, type McpCaller, type McpToolSpec, mcpToolSpec } from "../mcp/tools.ts";
import type { McpTool } from "../mcp/client.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import { ToolError } from "../tool/tool.ts";

/** How long the first request waits for servers still starting. */
export const MCP_GRACE_MS = 3000;
/** How long a later turn waits for a server's tool list before going on without it. */
const LIST_WAIT_MS = 1000;

export interface McpToolsOptions {
  manager: McpManager;
  registry: ToolRegistry;
  /** The tools JSON a resumed session recorded: its MCP tools keep these bytes. */
  recordedToolsJson?: string;
  /** The wait for servers still starting when the first request is built. */
  graceMs?: number;
}

export class McpTools {
  readonly #manager: McpManager;
  readonly #registry: ToolRegistry;
  readonly #recorded: Map<string, string> | undefined;
  readonly #graceMs: number;
  /** `server\0tool` → its spec. */
  readonly #specs = new Map<string, McpToolSpec>();
  /** Recorded tools whose server had not answered at resume: registry name → spec. */
  readonly #placeholders = new Map<string, McpToolSpec>();
  /** Proxied tools not yet told to the model. */
  #untold: string[] = [];
  /** Servers whose tools the first request could not carry, told on the first turn's tail. */
  #notConnected: string[] = [];
  #frozen: Promise<void> | undefined;
  readonly #caller: McpCaller;

  constructor(options: McpToolsOptions) {
    this.#manager = options.manager;
    this.#registry = options.registry;
    this.#recorded = options.recordedToolsJson === undefined
      ? undefined
      : recordedMcpTools(options.recordedToolsJson);
    this.#graceMs = options.graceMs ?? MCP_GRACE_MS;
    this.#caller = (spec, args, callOptions) => this.#call(spec, args, callOptions);
    options.registry.addSource({ refresh: () => this.refresh(), servers: () => this.#servers() });
  }

  /**
   * Before every request of a turn: the first time, fixes which MCP tools are direct; later, registers
   * tools that came since and returns a note for the turn's tail naming them.
   */
  async ready(): Promise<string[]> {
    if (this.#frozen === undefined) {
      this.#frozen = this.#freeze();
      await this.#frozen;
    } else {
      await this.#registerConnected(LIST_WAIT_MS);
    }
    return this.#notes();
  }

  /** `use_capability` asks first: lazy servers start (bounded by their startup timeout), new tools join. */
  async refresh(): Promise<void> {
    await this.#frozen;
    await loadArgumentValidator();
    const lazy = this.#manager.status().filter((s) =>
      s.state.kind === "idle" && !this.#manager.autoStarts(s.name)
    );
    await Promise.all(lazy.map((s) => this.#manager.connection(s.name).catch(() => {})));
    await this.#registerConnected();
    // What `list` or `search` shows needs no further note.
    this.#untold = [];
  }

  async #freeze(): Promise<void> {
    const started = performance.now();
    await loadArgumentValidator();
    await this.#manager.settled(this.#graceMs);
    // A server that connected just in time still gets a moment to list its tools.
    const left = Math.max(LIST_WAIT_MS, this.#graceMs - (performance.now() - started));
    const listed = await this.#listConnected(left);
    if (this.#recorded === undefined) {
      for (const [server, tools] of listed) this.#registerAll(server, tools, false);
    } else {
      this.#restoreRecorded(listed);
    }
    // Anything registered from now on is proxied, so the tools array never changes again.
    this.#untold = [];
    this.#notConnected = this.#manager.status()
      .filter((s) =>
        s.state.kind === "starting" || (s.state.kind === "idle" && !this.#manager.autoStarts(s.name))
      )
      .map((s) => s.name);
  }

  /** A resumed session: its recorded MCP tools direct with their bytes, every other tool proxied. */
  #restoreRecorded(listed: Map<string, McpTool[]>): void {
    const recorded = this.#recorded!;
    for (const [server, tools] of listed) {
      for (const tool of sorted(tools)) {
        const name = uniqueToolName(server, tool.name, (n) => this.#registry.has(n));
        const json = recorded.get(name);
        this.#add(server, tool, name, json === undefined ? { proxied: true } : { json });
        recorded.delete(name);
      }
    }
    // Recorded tools of servers not connected yet: same bytes, resolved when the server answers.
    for (const [name, json] of recorded) {
      const placeholder = placeholderTool(name, json, this.#serverNames());
      if (placeholder === null) continue;
      this.#add(placeholder.server, placeholder.tool, name, { json });
      this.#placeholders.set(name, this.#specs.get(key(placeholder.server, placeholder.tool.name))!);
    }
  }

  async #registerConnected(waitMs?: number): Promise<void> {
    for (const [server, tools] of await this.#listConnected(waitMs)) this.#registerAll(server, tools, true);
  }

  #registerAll(server: string, tools: readonly McpTool[], proxied: boolean): void {
    for (const tool of sorted(tools)) {
      const known = this.#specs.get(key(server, tool.name));
      if (known !== undefined) {
        known.info = { server, tool };
        continue;
      }
      const placeholder = this.#placeholders.get(mcpToolName(server, tool.name));
      if (placeholder !== undefined && placeholder.info.server === server) {
        // The real tool behind a recorded name: the spec (and its bytes) stays, its info is now the server's.
        this.#specs.delete(key(server, placeholder.info.tool.name));
        this.#placeholders.delete(placeholder.name);
        placeholder.info = { server, tool };
        this.#specs.set(key(server, tool.name), placeholder);
        continue;
      }
      const name = uniqueToolName(server, tool.name, (n) => this.#registry.has(n));
      const added = this.#add(server, tool, name, proxied ? { proxied: true } : {});
      if (added && proxied) this.#untold.push(name);
    }
  }

  /** False when `[tools] enabled` leaves the tool out. */
  #add(server: string, tool: McpTool, name: string, options: { proxied?: boolean; json?: string }): boolean {
    const spec = mcpToolSpec(name, { server, tool }, this.#caller);
    this.#specs.set(key(server, tool.name), spec);
    return this.#registry.register(spec, options);
  }

  /** Each connected server's tools, by server name; a list not in within `waitMs` waits for next time. */
  async #listConnected(waitMs?: number): Promise<Map<string, McpTool[]>> {
    const connected = this.#manager.status().filter((s) => s.state.kind === "connected");
    const lists = await Promise.all(connected.map(async ({ name }) => {
      const listing = this.#manager.connection(name).then((c) => c.listTools());
      const tools = await (waitMs === undefined ? listing : withinTime(listing, waitMs, undefined))
        .catch(() => undefined);
      return [name, tools] as const;
    }));
    const out = new Map<string, McpTool[]>();
    for (const [name, tools] of lists.sort((a, b) => compare(a[0], b[0]))) if (tools) out.set(name, tools);
    return out;
  }

  async #call(
    spec: McpToolSpec,
    args: Record<string, unknown>,
    options: Parameters<McpCaller>[2],
  ): ReturnType<McpCaller> {
    const { server } = spec.info;
    const connection = await this.#manager.connection(server);
    const tools = await connection.listTools();
    this.#registerAll(server, tools, true);
    const current = this.#specs.get(key(server, spec.info.tool.name));
    const offered = tools.some((tool) => tool.name === spec.info.tool.name);
    if (!offered || current !== spec) {
      throw new ToolError(
        "mcp.tool_gone",
        `MCP server "${server}" no longer offers "${spec.info.tool.name}"; use_capability "list" shows its tools`,
      );
    }
    return await connection.callTool(spec.info.tool.name, args, options);
  }

  #servers(): { name: string; status: string }[] {
    return this.#manager.status().map(({ name, state }) => ({
      name,
      status: state.kind === "idle" && !this.#manager.autoStarts(name) ? "starts on first use" : state.kind,
    }));
  }

  #serverNames(): string[] {
    return this.#manager.status().map((s) => s.name);
  }

  #notes(): string[] {
    const notes: string[] = [];
    if (this.#notConnected.length > 0) {
      notes.push(
        `MCP servers not connected yet: ${
          this.#notConnected.map((name) => JSON.stringify(name)).join(", ")
        }. ` +
          `Their tools are reached through use_capability: "search" or "list" finds them (and starts a server ` +
          `that starts on first use)`,
      );
      this.#notConnected = [];
    }
    if (this.#untold.length === 0) return notes;
    const names = this.#untold.sort(compare);
    this.#untold = [];
    return [
      ...notes,
      `More MCP tools became available (through use_capability, e.g. {"action":"call","capability_id":` +
      `"tool:${names[0]}","arguments":{...}}; "inspect" gives a schema): ${names.join(", ")}`,
    ];
  }
}

/** The recorded tools array's MCP entries: name → its exact JSON. */
function recordedMcpTools(json: string): Map<string, string> {
  const out = new Map<string, string>();
  let tools: unknown;
  try {
    tools = JSON.parse(json);
  } catch {
    return out;
  }
  if (!Array.isArray(tools)) return out;
  for (const tool of tools) {
    const name = (tool as { function?: { name?: unknown } })?.function?.name;
    // Canonical JSON again gives back the recorded bytes: they were canonical when recorded.
    if (typeof name === "string" && name.startsWith(MCP_PREFIX)) out.set(name, canonicalJson(tool));
  }
  return out;
}

/**
 * A recorded tool whose server has not answered yet, named after the server whose name it starts with
 * (the longest, when several do) and the rest of the name; its schema is the recorded one. The first
 * call lists the server's tools and finds the real one.
 */
function placeholderTool(
  name: string,
  json: string,
  servers: readonly string[],
): { server: string; tool: McpTool } | null {
  const prefixOf = (server: string) => `${serverGroup(server)}__`;
  const server = servers.filter((s) => name.startsWith(prefixOf(s))).sort((a, b) => b.length - a.length)[0];
  if (server === undefined) return null;
  const prefix = prefixOf(server);
  const parsed = JSON.parse(json) as {
    function: { description?: string; parameters?: McpTool["inputSchema"] };
  };
  const tool: McpTool = {
    name: name.slice(prefix.length),
    description: parsed.function.description ?? "",
    inputSchema: parsed.function.parameters ?? { type: "object" },
  };
  return { server, tool };
}

function sorted(tools: readonly McpTool[]): McpTool[] {
  return [...tools].sort((a, b) => compare(a.name, b.name));
}

function key(server: string, tool: string): string {
  return `${server}\0${tool}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
