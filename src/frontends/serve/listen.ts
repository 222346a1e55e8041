/**
 * @module
 * The only place serve opens a port: `Deno.serve` over the app, with each request's peer address
 * bound for auth's per-client rate limit.
 */
import type { Hono } from "hono";
import type { ServeEnv } from "./auth.ts";
import type { ListenAddress } from "./address.ts";
import { ReasonixError } from "../../lib/errors.ts";

export interface Listening {
  /** The port actually bound (port 0 picks one). */
  port: number;
  shutdown(): Promise<void>;
  finished: Promise<void>;
}

export async function listen(app: Hono<ServeEnv>, address: ListenAddress): Promise<Listening> {
  const { promise: bound, resolve } = Promise.withResolvers<number>();
  let server: Deno.HttpServer;
  try {
    server = serve(app, address, resolve);
  } catch (error) {
    const where = `${address.hostname}:${address.port}`;
    if (error instanceof Deno.errors.AddrInUse) {
      throw new ReasonixError("serve.addr_in_use", `Cannot listen on ${where}: the address is in use`, {
        hint: "Stop what listens there, or pick another port with --addr",
      });
    }
    if (error instanceof Deno.errors.AddrNotAvailable || error instanceof Deno.errors.PermissionDenied) {
      throw new ReasonixError("serve.cannot_listen", `Cannot listen on ${where}: ${error.message}`);
    }
    throw error;
  }
  return { port: await bound, shutdown: () => server.shutdown(), finished: server.finished };
}

function serve(app: Hono<ServeEnv>, address: ListenAddress, onPort: (port: number) => void): Deno.HttpServer {
  return Deno.serve({
    hostname: address.hostname,
    port: address.port,
    onListen: (addr) => onPort(addr.port),
  }, (request, info) => {
    const remote = info.remoteAddr.transport === "tcp" ? info.remoteAddr.hostname : undefined;
    return app.fetch(request, remote === undefined ? {} : { remote });
  });
}
