/**
 * @module
 * The SDK transport a server's definition calls for: a child over stdio (stdio_transport.ts), Streamable
 * HTTP (the SDK echoes the session id it is given), or legacy HTTP+SSE (the SDK refuses an announced
 * endpoint on another origin). The static `headers` go with every HTTP request; an OAuth provider
 * (oauth_provider.ts) adds the bearer token and answers a 401.
 */
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpOAuthProvider } from "./oauth_provider.ts";
import type { McpServerSpec } from "./expand.ts";
import type { StderrTail } from "./stderr_tail.ts";
import { ChildStdioTransport } from "./stdio_transport.ts";

export interface OpenedTransport {
  transport: Transport;
  /** Why the server's side ended the connection, when it did (a stdio server's exit or junk). */
  failure(): string | undefined;
  /** Stops what the transport started (a stdio server's process group). */
  stop(): Promise<void>;
}

export function openTransport(
  spec: McpServerSpec,
  options: { cwd: string; env: Record<string, string>; stderr: StderrTail; oauth?: McpOAuthProvider },
): OpenedTransport {
  if (spec.type === "stdio") {
    const transport = new ChildStdioTransport({ argv: [spec.command, ...spec.args], ...options });
    return { transport, failure: () => transport.failure, stop: () => transport.close() };
  }
  const url = new URL(spec.url);
  const requestInit = { headers: spec.headers };
  const auth = options.oauth ? { authProvider: options.oauth, fetch: options.oauth.fetch } : {};
  const transport = spec.type === "http"
    ? new StreamableHTTPClientTransport(url, { requestInit, ...auth })
    : new SSEClientTransport(url, { requestInit, ...auth });
  return { transport, failure: () => undefined, stop: () => transport.close() };
}
