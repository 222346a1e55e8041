/**
 * @module
 * How a remote connection (Streamable HTTP or legacy SSE) notices that its server went away. The SDK reports
 * a broken response stream, a refused request or a forgotten session through the transport's `onerror` and
 * otherwise leaves the pending calls waiting for their timeouts, or retries the stream in the background.
 * Here such a loss ends the connection at once: the SDK then fails every pending call, McpConnection names
 * the loss, and the session's manager connects afresh on the next use. A message that does not parse, an
 * HTTP error for one request and an authorisation failure are left to the request they belong to.
 */
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { escapeControls } from "../lib/terminal_text.ts";

const FOREIGN_ENDPOINT = /^Endpoint origin does not match connection origin: (.*)$/;
const REFUSED = /connection refused/i;
const POSTED = /^Streamable HTTP error: Error POSTing to endpoint/;
const STREAM_LOST = /^(SSE stream disconnected|Failed to reconnect|Maximum reconnection attempts)/;

export class RemoteWatch {
  /** Why the server's side ended the connection, once it did. */
  failure: string | undefined;
  /** The loss refused requests before the server could run them: it no longer knows the session (HTTP 404
   * or 400 to a message, after a restart). Sending them again on a new connection is safe. */
  unsent = false;
  readonly #transport: Transport;

  /** Must run before the SDK's Client connects the transport, which chains its own `onerror` after this. */
  constructor(transport: Transport) {
    this.#transport = transport;
    transport.onerror = (error: Error) => this.#classify(error);
  }

  #classify(error: Error): void {
    if (this.failure !== undefined) return;
    const session = (this.#transport as { sessionId?: string }).sessionId;
    const loss = lossOf(error, session !== undefined);
    if (loss === undefined) return;
    this.failure = loss.why;
    this.unsent = loss.unsent;
    void this.#transport.close().catch(() => {});
  }
}

function lossOf(error: Error, inSession: boolean): { why: string; unsent: boolean } | undefined {
  const message = brief(error.message);
  const foreign = FOREIGN_ENDPOINT.exec(error.message);
  if (foreign) {
    // Messages go only to the origin of the configured url; the SDK refuses the endpoint, this names why.
    const why = `was refused: it announced its message endpoint on another origin (${brief(foreign[1]!)})`;
    return { why, unsent: false };
  }
  const status = (error as { code?: number }).code;
  if (error instanceof StreamableHTTPError) {
    // The spec's answer to a session the server forgot (it restarted, or the session expired) is 404; the
    // SDK's own servers, and many built on it, answer 400. Either way the request was not run. Only a
    // message's POST counts: a server answering the optional GET stream with 404 instead of 405 lives on.
    if (!POSTED.test(error.message) || !inSession) return undefined;
    if (status === 404) return { why: "no longer knows this session (HTTP 404)", unsent: true };
    if (status === 400) return { why: `refused this session (${message})`, unsent: true };
    return undefined;
  }
  if (error instanceof SseError) {
    return status === 401 || status === 403
      ? undefined
      : { why: `lost its event stream (${message})`, unsent: false };
  }
  if (STREAM_LOST.test(error.message)) return { why: `lost its connection (${message})`, unsent: false };
  // fetch() rejects with a TypeError ("fetch failed", the details in its cause) when nothing listens at the
  // address, or the connection broke before the answer.
  if (error instanceof TypeError) {
    const cause = error.cause instanceof Error ? brief(error.cause.message) : message;
    // Not sent again: the refusal may come from the SDK's background stream, while a call was in flight.
    if (REFUSED.test(cause)) return { why: `cannot be reached (${cause})`, unsent: false };
    return { why: `lost its connection (${cause})`, unsent: false };
  }
  return undefined;
}

function brief(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return escapeControls(line.length > 200 ? `${line.slice(0, 200)}…` : line);
}
