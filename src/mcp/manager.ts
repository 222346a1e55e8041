/**
 * @module
 * The servers of one session. `startInBackground` starts every `auto_start` server without waiting, so
 * servers never hold up the first turn; a slow or failing one is reported in `status()` and the rest go
 * on. An `auto_start = false` server starts on first use. A server that crashed after connecting starts
 * again on its next use; one that failed to start stays failed until `restart`. Servers a project file
 * declares are refused until their definition is approved (src/mcp/gate.ts).
 */
import { ReasonixError } from "../lib/errors.ts";
import type { CallToolResult, McpConnection } from "./client.ts";
import type { McpServerEntry } from "./config.ts";
import { type GateOptions, startRefusal } from "./gate.ts";

export type McpServerState =
  | { kind: "refused"; reason: string }
  | { kind: "idle" }
  | { kind: "starting" }
  | { kind: "connected" }
  | { kind: "failed"; reason: string };

export interface McpManagerOptions extends GateOptions {
  /** The environment servers' own `env` is laid over. */
  baseEnv: Record<string, string>;
}

interface Slot {
  entry: McpServerEntry;
  state: McpServerState;
  starting?: Promise<McpConnection>;
  connection?: McpConnection;
}

export class McpManager {
  readonly #slots = new Map<string, Slot>();
  readonly #options: McpManagerOptions;

  constructor(entries: readonly McpServerEntry[], options: McpManagerOptions) {
    this.#options = options;
    for (const entry of entries) {
      const refusal = startRefusal(entry, options);
      const state: McpServerState = refusal !== undefined
        ? { kind: "refused", reason: refusal }
        : { kind: "idle" };
      this.#slots.set(entry.decl.name, { entry, state });
    }
  }

  /** Starts every `auto_start` server that may start; returns at once. */
  startInBackground(): void {
    for (const slot of this.#slots.values()) {
      if (slot.state.kind === "idle" && slot.entry.decl.autoStart) this.#start(slot).catch(() => {});
    }
  }

  status(): { name: string; state: McpServerState }[] {
    return [...this.#slots.entries()].map(([name, slot]) => ({ name, state: this.#stateOf(slot) }));
  }

  /** The live connection, starting the server when it is idle or crashed since it connected. */
  async connection(name: string): Promise<McpConnection> {
    const slot = this.#slots.get(name);
    if (slot === undefined) throw new ReasonixError("mcp.unknown_server", `Cannot find MCP server "${name}"`);
    const state = this.#stateOf(slot);
    if (state.kind === "refused") throw new ReasonixError("mcp.not_started", state.reason);
    if (state.kind === "failed") throw new ReasonixError("mcp.not_started", state.reason);
    if (state.kind === "connected") return slot.connection!;
    return await (slot.starting ?? this.#start(slot));
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: Parameters<McpConnection["callTool"]>[2] = {},
  ): Promise<CallToolResult> {
    return await (await this.connection(server)).callTool(tool, args, options);
  }

  /** Stops the server if it runs and starts it again (a failed start is tried anew). */
  async restart(name: string): Promise<McpConnection> {
    const slot = this.#slots.get(name);
    if (slot === undefined) throw new ReasonixError("mcp.unknown_server", `Cannot find MCP server "${name}"`);
    if (slot.state.kind === "refused") throw new ReasonixError("mcp.not_started", slot.state.reason);
    await slot.starting?.catch(() => {});
    await slot.connection?.close();
    slot.connection = undefined;
    slot.state = { kind: "idle" };
    return await this.#start(slot);
  }

  async closeAll(): Promise<void> {
    const slots = [...this.#slots.values()];
    await Promise.all(slots.map((slot) => slot.starting?.catch(() => {})));
    await Promise.all(slots.map((slot) => slot.connection?.close()));
  }

  #stateOf(slot: Slot): McpServerState {
    // A connection that ended on the server's side is started again on its next use.
    if (slot.state.kind === "connected" && !slot.connection?.alive) return { kind: "idle" };
    return slot.state;
  }

  #start(slot: Slot): Promise<McpConnection> {
    const { entry } = slot;
    slot.state = { kind: "starting" };
    // The client and the MCP SDK under it load with the first server, not with every session.
    const starting = import("./client.ts").then(({ McpConnection }) =>
      McpConnection.connect(entry.spec!, {
        cwd: this.#options.workspace,
        baseEnv: this.#options.baseEnv,
        startupTimeoutMs: entry.startupTimeoutMs,
        callTimeoutMs: entry.callTimeoutMs,
        toolTimeoutMs: entry.toolTimeoutMs,
      })
    );
    slot.starting = starting;
    starting.then((connection) => {
      slot.connection = connection;
      slot.state = { kind: "connected" };
    }, (error) => {
      slot.state = { kind: "failed", reason: error instanceof Error ? error.message : String(error) };
    }).finally(() => {
      if (slot.starting === starting) slot.starting = undefined;
    });
    return starting;
  }
}
