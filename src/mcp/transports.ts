/**
 * @module
 * The SDK transport a server's definition calls for: a child over stdio (stdio_transport.ts), Streamable
 * HTTP (the SDK echoes the session id it is given; stopping ends the session with a DELETE), or legacy
 * HTTP+SSE (the SDK refuses an announced endpoint on another origin). The static `headers` go with every HTTP
 * request; an OAuth provider (oauth_provider.ts) adds the bearer token and answers a 401. A remote server
 * that goes away ends its connection at once (remote_watch.ts).
 */
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpOAuthProvider } from "./oauth_provider.ts";
import type { McpServerSpec } from "./expand.ts";
import type { StderrTail } from "./stderr_tail.ts";
import { RemoteWatch } from "./remote_watch.ts";
import { ChildStdioTransport } from "./stdio_transport.ts";

/** How long closing waits for a Streamable HTTP server to acknowledge the end of its session. */
const FAREWELL_MS = 2000;

export interface OpenedTransport {
  transport: Transport;
  /** Why the server's side ended the connection, when it did (a stdio server's exit or junk). */
  failure(): string | undefined;
  /** The failure refused requests before the server ran them, so a new connection may send them again. */
  unsent(): boolean;
  /** Stops what the transport started (a stdio server's process group, an HTTP session); call it before the
   * Client's `close()`. */
  stop(): Promise<void>;
}

export function openTransport(
  spec: McpServerSpec,
  options: { cwd: string; env: Record<string, string>; stderr: StderrTail; oauth?: McpOAuthProvider },
): OpenedTransport {
  if (spec.type === "stdio") {
    const transport = new ChildStdioTransport({ argv: [spec.command, ...spec.args], ...options });
    return {
      transport,
      failure: () => transport.failure,
      unsent: () => false,
      stop: () => transport.close(),
    };
  }
  const url = new URL(spec.url);
  const requestInit = { headers: spec.headers };
  const auth = options.oauth ? { authProvider: options.oauth, fetch: options.oauth.fetch } : {};
  const transport = spec.type === "http"
    ? new StreamableHTTPClientTransport(url, { requestInit, ...auth })
    : new SSEClientTransport(url, { requestInit, ...auth });
  const watch = new RemoteWatch(transport);
  const stop = async () => {
    if (transport instanceof StreamableHTTPClientTransport && watch.failure === undefined) {
      await farewell(transport);
    }
    await transport.close();
  };
  return { transport, failure: () => watch.failure, unsent: () => watch.unsent, stop };
}

/** DELETE of the session, bounded: a server that does not answer does not hold up closing. */
async function farewell(transport: StreamableHTTPClientTransport): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => timer = setTimeout(resolve, FAREWELL_MS));
  await Promise.race([transport.terminateSession().catch(() => {}), late]);
  clearTimeout(timer);
}
