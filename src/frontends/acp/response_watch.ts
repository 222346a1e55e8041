/**
 * @module
 * Runs work once a given response has been written to the connection: Zed drops an
 * `available_commands_update` for a session whose `session/new` response it has not read yet, so the
 * commands are sent only after that response went out, on the same ordered stream.
 */
import type * as acp from "@agentclientprotocol/sdk";

export class ResponseWatch {
  #waiting = new Map<acp.JsonRpcId, () => void>();

  /** The same stream, with each written response's id checked against the waiting work. */
  wrap(stream: acp.Stream): acp.Stream {
    const writer = stream.writable.getWriter();
    const writable = new WritableStream<acp.AnyMessage>({
      write: async (message) => {
        await writer.write(message);
        if ("method" in message || !("id" in message) || message.id === null) return;
        const after = this.#waiting.get(message.id);
        this.#waiting.delete(message.id);
        after?.();
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason),
    });
    return { readable: stream.readable, writable };
  }

  after(id: acp.JsonRpcId, work: () => void): void {
    this.#waiting.set(id, work);
  }
}
