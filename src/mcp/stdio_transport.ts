/**
 * @module
 * The SDK's Transport over a child we spawn ourselves (src/sandbox/stdio_child.ts), so the server runs
 * without a shell, in its own process group, with stderr kept bounded. Messages are framed and checked by
 * the SDK's own `deserializeMessage`/`serializeMessage`; a line that is not JSON-RPC ends the connection
 * with a clear reason instead of leaving calls waiting, and so does the server's exit.
 */
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { escapeControls } from "../lib/terminal_text.ts";
import { spawnStdioChild, type StdioChild } from "../sandbox/stdio_child.ts";
import type { StderrTail } from "./stderr_tail.ts";

/** A line longer than this without a newline is not a message this client will buffer. */
const MAX_LINE_CHARS = 10 * 1024 * 1024;
const STOP_GRACE_MS = 2000;

export interface ChildTransportOptions {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  stderr: StderrTail;
}

export class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the connection ended on the server's side ("exited with code 1", junk on stdout). */
  failure: string | undefined;
  #child: StdioChild | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #closing = false;
  #closed = false;
  readonly #options: ChildTransportOptions;

  constructor(options: ChildTransportOptions) {
    this.#options = options;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    const { argv, cwd, env } = this.#options;
    const child = spawnStdioChild(argv, { cwd, env });
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#writer.closed.catch(() => {});
    const stderr = this.#options.stderr.pump(child.stderr);
    void this.#readStdout(child).then(async () => {
      const status = await child.status;
      await stderr;
      const how = status.signal ? `was killed by ${status.signal}` : `exited with code ${status.exitCode}`;
      this.#end(how);
    });
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed || !this.#writer) throw new Error("the server's connection is closed");
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.#writer?.close().catch(() => {});
    await this.#child?.stop(STOP_GRACE_MS);
    this.#end(undefined);
  }

  async #readStdout(child: StdioChild): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    try {
      for await (const chunk of child.stdout) {
        pending += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = pending.indexOf("\n")) !== -1) {
          const line = pending.slice(0, newline).replace(/\r$/, "");
          pending = pending.slice(newline + 1);
          if (line.trim() !== "" && !this.#deliver(line)) return await this.#junk(line);
        }
        if (pending.length > MAX_LINE_CHARS) return await this.#junk(pending);
      }
    } catch {
      // The pipe broke with the process: the exit status says why.
    }
  }

  #deliver(line: string): boolean {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      return false;
    }
    this.onmessage?.(message);
    return true;
  }

  async #junk(line: string): Promise<void> {
    const preview = escapeControls(line.length > 120 ? `${line.slice(0, 120)}…` : line);
    this.failure = `wrote something that is not JSON-RPC to stdout: "${preview}" ` +
      "(an MCP stdio server must write only protocol messages there, and its logs to stderr)";
    this.onerror?.(new Error(this.failure));
    await this.#child?.stop(STOP_GRACE_MS);
  }

  #end(how: string | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    if (how !== undefined && !this.#closing) this.failure ??= how;
    this.onclose?.();
  }
}
