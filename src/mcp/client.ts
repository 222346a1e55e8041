/**
 * @module
 * One live connection to an MCP server, on the SDK's Client, over stdio, Streamable HTTP or SSE. The tool list is
 * fetched on demand and refetched after `notifications/tools/list_changed`; a call never waits on that
 * list, so a server announcing a change right after connecting (server-everything does) cannot fail the
 * first call. A crash, junk on stdout or a timeout fails the pending call with the server's name, what
 * happened and the tail of its stderr. The client offers the `roots` capability: `roots/list` answers the
 * workspace as its one `file://` root.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import {
  type CallToolResult,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { ReasonixError } from "../lib/errors.ts";
import { secretName } from "../sandbox/_secret_env.ts";
import { VERSION } from "../lib/version.ts";
import type { McpServerSpec } from "./expand.ts";
import { StderrTail } from "./stderr_tail.ts";
import { type OpenedTransport, openTransport } from "./transports.ts";
import { McpOAuthProvider, needsLogin } from "./oauth_provider.ts";
import { OAuthStore } from "./oauth_store.ts";
import { type Page, pagesOf } from "./_pages.ts";

export type { CallToolResult, Tool as McpTool };
import type {
  GetPromptResult,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  ReadResourceResult,
} from "./content_types.ts";
export type * from "./content_types.ts";

/** One `notifications/progress` of a call. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface ConnectOptions {
  /** The workspace: where a stdio server runs, and the root every server is offered. */
  cwd: string;
  /** The environment the server's own `env` is laid over (the process environment). */
  baseEnv: Record<string, string>;
  startupTimeoutMs: number;
  callTimeoutMs: number;
  toolTimeoutMs?: Record<string, number>;
  /** More values to redact from the server's stderr, beside its env and header values and the secret-named
   * variables of `baseEnv`. */
  secrets?: readonly string[];
  /** `Paths.mcpAuthDir`: an HTTP server without its own Authorization header uses the OAuth tokens kept
   * there (and refreshes them); one that needs a login fails with `mcp.needs_auth`. */
  oauthDir?: string;
}

export class McpConnection {
  readonly name: string;
  readonly #client: Client;
  readonly #transport: OpenedTransport;
  readonly #stderr: StderrTail;
  readonly #options: ConnectOptions;
  #tools: Promise<Tool[]> | undefined;
  #toolsStale = false;
  #promptsVersion = 0;
  #closed = false;
  /** The connection ended, by `close()` or on the server's side (it exited, or wrote junk). */
  #ended = false;

  private constructor(
    name: string,
    parts: { client: Client; transport: OpenedTransport; stderr: StderrTail; options: ConnectOptions },
  ) {
    this.name = name;
    this.#client = parts.client;
    this.#transport = parts.transport;
    this.#stderr = parts.stderr;
    this.#options = parts.options;
  }

  static async connect(spec: McpServerSpec, options: ConnectOptions): Promise<McpConnection> {
    const inherited = Object.entries(options.baseEnv).filter(([name]) => secretName(name)).map(([, v]) => v);
    const secrets = [
      ...Object.values(spec.env),
      ...Object.values(spec.headers),
      ...inherited,
      ...(options.secrets ?? []),
    ];
    const stderr = new StderrTail(secrets);
    const oauth = await sessionOAuth(spec, options.oauthDir);
    const transport = openTransport(spec, {
      cwd: options.cwd,
      env: { ...options.baseEnv, ...spec.env },
      stderr,
      ...(oauth ? { oauth } : {}),
    });
    const client = new Client({ name: "reasonix", version: VERSION }, { capabilities: { roots: {} } });
    const connection = new McpConnection(spec.name, { client, transport, stderr, options });
    client.onerror = () => {};
    client.onclose = () => {
      connection.#ended = true;
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      connection.#toolsStale = true;
    });
    const root = { uri: pathToFileURL(options.cwd).href, name: basename(options.cwd) };
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [root] }));
    client.setNotificationHandler(
      PromptListChangedNotificationSchema,
      () => void connection.#promptsVersion++,
    );
    try {
      await client.connect(transport.transport, { timeout: options.startupTimeoutMs });
    } catch (error) {
      await connection.close();
      if (error instanceof Deno.errors.NotFound) {
        throw new ReasonixError(
          "mcp.spawn",
          `Cannot start MCP server "${spec.name}": "${spec.command}" was not found`,
          { cause: error },
        );
      }
      if (error instanceof UnauthorizedError) throw needsLogin(spec.name, "you are not logged in");
      throw connection.#explain(error, "initialize", options.startupTimeoutMs, "start");
    }
    return connection;
  }

  /** False once the connection ended, whichever side ended it. */
  get alive(): boolean {
    return !this.#ended && !this.#closed;
  }

  /** What the server wrote to stderr last, redacted. */
  stderrTail(): string {
    return this.#stderr.text();
  }

  serverInfo(): { name: string; version: string } | undefined {
    return this.#client.getServerVersion();
  }

  /** Every page of `tools/list`, cached until the server announces a change. */
  listTools(): Promise<Tool[]> {
    if (this.#tools === undefined || this.#toolsStale) {
      this.#toolsStale = false;
      const fetched = this.#fetchTools();
      this.#tools = fetched;
      fetched.catch(() => {
        if (this.#tools === fetched) this.#tools = undefined;
      });
    }
    return this.#tools;
  }

  /**
   * `signal` cancels the call (the SDK sends `notifications/cancelled`); `onProgress` receives the
   * server's progress notifications, each of which also restarts the call's timeout.
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; onProgress?: (progress: McpProgress) => void } = {},
  ): Promise<CallToolResult> {
    const timeout = this.#options.toolTimeoutMs?.[tool] ?? this.#options.callTimeoutMs;
    const { onProgress, signal } = options;
    try {
      const result = await this.#client.callTool({ name: tool, arguments: args }, undefined, {
        timeout,
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
      });
      return result as CallToolResult;
    } catch (error) {
      if (signal?.aborted) {
        throw new ReasonixError(
          "mcp.cancelled",
          `Cancelled tools/call "${tool}" of MCP server "${this.name}"`,
          {
            cause: error,
          },
        );
      }
      throw this.#explain(error, `tools/call "${tool}"`, timeout, "answer");
    }
  }

  /** Counts `notifications/prompts/list_changed`: a list fetched at an older count is stale. */
  get promptsVersion(): number {
    return this.#promptsVersion;
  }

  /** Every page of `prompts/list` (bounded); none when the server offers no prompts. */
  listPrompts(): Promise<McpPrompt[]> {
    if (!this.#client.getServerCapabilities()?.prompts) return Promise.resolve([]);
    return this.#pages("prompts/list", async (params, options) => {
      const got = await this.#client.listPrompts(params, options);
      return { items: got.prompts as McpPrompt[], next: got.nextCursor };
    });
  }

  /** Every page of `resources/list` (bounded); none when the server offers no resources. */
  listResources(): Promise<McpResource[]> {
    if (!this.#client.getServerCapabilities()?.resources) return Promise.resolve([]);
    return this.#pages("resources/list", async (params, options) => {
      const got = await this.#client.listResources(params, options);
      return { items: got.resources as McpResource[], next: got.nextCursor };
    });
  }

  listResourceTemplates(): Promise<McpResourceTemplate[]> {
    if (!this.#client.getServerCapabilities()?.resources) return Promise.resolve([]);
    return this.#pages("resources/templates/list", async (params, options) => {
      const got = await this.#client.listResourceTemplates(params, options);
      return { items: got.resourceTemplates as McpResourceTemplate[], next: got.nextCursor };
    });
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const timeout = this.#options.callTimeoutMs;
    try {
      return await this.#client.getPrompt({ name, arguments: args }, { timeout }) as GetPromptResult;
    } catch (error) {
      throw this.#explain(error, `prompts/get "${name}"`, timeout, "answer");
    }
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const timeout = this.#options.callTimeoutMs;
    try {
      return await this.#client.readResource({ uri }, { timeout }) as ReadResourceResult;
    } catch (error) {
      throw this.#explain(error, `resources/read "${uri}"`, timeout, "answer");
    }
  }

  async #pages<T>(
    request: string,
    fetch: (params: { cursor: string } | undefined, options: { timeout: number }) => Promise<Page<T>>,
  ): Promise<T[]> {
    const timeout = this.#options.callTimeoutMs;
    try {
      return await pagesOf((cursor) => fetch(cursor ? { cursor } : undefined, { timeout }));
    } catch (error) {
      throw this.#explain(error, request, timeout, "answer");
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#transport.stop().catch(() => {});
    await this.#client.close().catch(() => {});
  }

  async #fetchTools(): Promise<Tool[]> {
    const timeout = this.#options.callTimeoutMs;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await this.#client.listTools(cursor ? { cursor } : undefined, { timeout });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
    } catch (error) {
      throw this.#explain(error, "tools/list", timeout, "answer");
    }
    return tools;
  }

  #explain(error: unknown, request: string, timeoutMs: number, verb: "start" | "answer"): ReasonixError {
    const failure = this.#transport.failure();
    const tail = this.#stderr.text();
    const hint = tail === "" ? {} : { hint: `its stderr ends with:\n${tail}` };
    const server = `MCP server "${this.name}"`;
    if (failure !== undefined) {
      // `mcp.unsent`: the server never saw the request, so the manager may send it once more.
      const code = this.#transport.unsent() ? "mcp.unsent" : "mcp.server_failed";
      return new ReasonixError(code, `${server} ${failure} during ${request}`, {
        ...hint,
        cause: error,
      });
    }
    if (error instanceof McpError && (error as { code: number }).code === ErrorCode.RequestTimeout) {
      const seconds = timeoutMs / 1000;
      const what = verb === "start" ? "did not finish starting" : `did not answer ${request}`;
      return new ReasonixError("mcp.timeout", `${server} ${what} within ${seconds} s`, {
        ...hint,
        cause: error,
      });
    }
    if (error instanceof ReasonixError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new ReasonixError("mcp.request_failed", `${server} failed ${request}: ${message}`, {
      ...hint,
      cause: error,
    });
  }
}

/** The session-mode OAuth provider of a remote server, unless it sends its own Authorization header. */
async function sessionOAuth(
  spec: McpServerSpec,
  dir: string | undefined,
): Promise<McpOAuthProvider | undefined> {
  if (dir === undefined || spec.type === "stdio") return undefined;
  if (Object.keys(spec.headers).some((key) => key.toLowerCase() === "authorization")) return undefined;
  const store = await OAuthStore.open(dir, spec.name, spec.url);
  return new McpOAuthProvider({ name: spec.name, store, ...(spec.oauth ? { oauth: spec.oauth } : {}) });
}
