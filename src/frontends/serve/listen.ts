/**
 * @module
 * The only place serve opens a port: `Deno.serve` over the app, with each request's peer address
 * bound for auth's per-client rate limit.
 */
import type { Hono } from "hono";
import type { ServeEnv } from "./auth.ts";
import type { ListenAddress } from "./address.ts";

export interface Listening {
  /** The port actually bound (port 0 picks one). */
  port: number;
  shutdown(): Promise<void>;
  finished: Promise<void>;
}

export async function listen(app: Hono<ServeEnv>, address: ListenAddress): Promise<Listening> {
  const { promise: bound, resolve } = Promise.withResolvers<number>();
  const server = Deno.serve({
    hostname: address.hostname,
    port: address.port,
    onListen: (addr) => resolve(addr.port),
  }, (request, info) => {
    const remote = info.remoteAddr.transport === "tcp" ? info.remoteAddr.hostname : undefined;
    return app.fetch(request, remote === undefined ? {} : { remote });
  });
  return { port: await bound, shutdown: () => server.shutdown(), finished: server.finished };
}
