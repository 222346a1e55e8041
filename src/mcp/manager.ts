/**
 * @module
 * The servers of one session. `startInBackground` starts every `auto_start` server without waiting, so
 * servers never hold up the first turn; a slow or failing one is reported in `status()` and the rest go
 * on. An `auto_start = false` server starts on first use, and so does one that needs a login (the person
 * may have run `reasonix mcp login` since). A server that crashed after connecting starts again on its next
 * use, and a call a remote server refused unseen (it restarted) is sent again at once; one that failed to
 * start stays failed until `restart`. Servers a project file declares are refused until their definition is
 * approved (src/mcp/gate.ts).
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
  /** A remote server refused us and no stored token or refresh helps: `reasonix mcp login <name>`. */
  | { kind: "needs_auth"; reason: string }
  | { kind: "failed"; reason: string };

export interface McpManagerOptions extends GateOptions {
  /** The environment servers' own `env` is laid over. */
  baseEnv: Record<string, string>;
  /** `Paths.mcpAuthDir`: where remote servers' OAuth tokens are kept. */
  oauthDir?: string;
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
  readonly #closing = new AbortController();

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

  /** False for an `auto_start = false` server (and an unknown name): it starts on first use. */
  autoStarts(name: string): boolean {
    return this.#slots.get(name)?.entry.decl.autoStart === true;
  }

  /** Resolves once no server is starting, or after `timeoutMs`, whichever comes first. */
  async settled(timeoutMs: number): Promise<void> {
    const starting = [...this.#slots.values()].flatMap((slot) => slot.starting ? [slot.starting] : []);
    if (starting.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<void>((resolve) => timer = setTimeout(resolve, timeoutMs));
    await Promise.race([Promise.allSettled(starting), expired]);
    clearTimeout(timer);
  }

  /** The live connection if the server is connected now; never starts it. */
  peek(name: string): McpConnection | undefined {
    const slot = this.#slots.get(name);
    return slot && this.#stateOf(slot).kind === "connected" ? slot.connection : undefined;
  }

  /** The server's configured entry (its declaration, trust and definition). */
  entry(name: string): McpServerEntry | undefined {
    return this.#slots.get(name)?.entry;
  }

  /**
   * Applies a fresh list of servers (`/reload`, `/mcp trust`): a server whose definition, trust and
   * state are unchanged keeps running; a changed, failed or crashed one starts again; a removed one stops.
   */
  async reconfigure(entries: readonly McpServerEntry[]): Promise<void> {
    const names = new Set(entries.map((entry) => entry.decl.name));
    for (const [name, slot] of [...this.#slots]) {
      if (names.has(name)) continue;
      this.#slots.delete(name);
      await this.#stop(slot);
    }
    for (const entry of entries) {
      const old = this.#slots.get(entry.decl.name);
      const refusal = startRefusal(entry, this.#options);
      const state = old && this.#stateOf(old);
      const keep = old && refusal === undefined && sameEntry(old.entry, entry) &&
        (state?.kind === "connected" || state?.kind === "starting");
      if (keep) continue;
      if (old) await this.#stop(old);
      const slot: Slot = { entry, state: refusal ? { kind: "refused", reason: refusal } : { kind: "idle" } };
      this.#slots.set(entry.decl.name, slot);
      if (slot.state.kind === "idle" && entry.decl.autoStart) this.#start(slot).catch(() => {});
    }
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
    const connection = await this.connection(server);
    try {
      return await connection.callTool(tool, args, options);
    } catch (error) {
      // A remote server restarted since it connected (it forgot the session) or is not listening: the call
      // never reached it, and a new connection sends it once more.
      if (!(error instanceof ReasonixError) || error.code !== "mcp.unsent") throw error;
      return await (await this.connection(server)).callTool(tool, args, options);
    }
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

  async #stop(slot: Slot): Promise<void> {
    await slot.starting?.catch(() => {});
    await slot.connection?.close();
  }

  /** Aborts when the session closes its servers: work tied to them (a login waiting on a browser) ends. */
  get closing(): AbortSignal {
    return this.#closing.signal;
  }

  /** Where OAuth tokens are kept, and the environment the servers (and a login's `$BROWSER`) see. */
  get settings(): { oauthDir?: string; env: Record<string, string> } {
    const { oauthDir, baseEnv } = this.#options;
    return { ...(oauthDir !== undefined ? { oauthDir } : {}), env: baseEnv };
  }

  async closeAll(): Promise<void> {
    this.#closing.abort();
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
        ...(this.#options.oauthDir !== undefined ? { oauthDir: this.#options.oauthDir } : {}),
      })
    );
    slot.starting = starting;
    starting.then((connection) => {
      slot.connection = connection;
      slot.state = { kind: "connected" };
    }, (error) => {
      const reason = error instanceof Error ? error.message : String(error);
      const needsAuth = error instanceof ReasonixError && error.code === "mcp.needs_auth";
      slot.state = needsAuth ? { kind: "needs_auth", reason } : { kind: "failed", reason };
    }).finally(() => {
      if (slot.starting === starting) slot.starting = undefined;
    });
    return starting;
  }
}

function sameEntry(a: McpServerEntry, b: McpServerEntry): boolean {
  const shape = (entry: McpServerEntry) =>
    JSON.stringify([
      entry.spec,
      entry.problem,
      entry.trust,
      entry.decl.autoStart,
      entry.startupTimeoutMs,
      entry.callTimeoutMs,
      entry.toolTimeoutMs,
    ]);
  return shape(a) === shape(b);
}
