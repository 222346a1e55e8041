/**
 * @module
 * `--addr HOST:PORT` (`[::1]:8787`, `:8787` for every interface, port 0 for any free port), and the
 * rule that keeps an unauthenticated server on loopback.
 */
import { ReasonixError } from "../../lib/errors.ts";
import type { ServeAuthMode } from "../../control/mod.ts";
import { isLoopbackHost } from "./guard.ts";

export interface ListenAddress {
  hostname: string;
  port: number;
}

export function parseAddr(addr: string): ListenAddress {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(addr.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    throw new ReasonixError("usage.bad_value", `Cannot use --addr "${addr}": expected HOST:PORT`, {
      hint: "e.g. --addr 127.0.0.1:8787, --addr [::1]:8787, --addr 0.0.0.0:8787",
    });
  }
  const hostname = match[1] ?? (match[2] || "0.0.0.0");
  return { hostname, port };
}

/** Refuses to start a server anyone on the network could drive without a password or token. */
export function checkExposure(address: ListenAddress, auth: ServeAuthMode): void {
  if (auth !== "none" || isLoopbackHost(address.hostname)) return;
  throw new ReasonixError(
    "usage.unsafe_bind",
    `Refusing to listen on ${address.hostname} with --auth none: anyone who can reach it could run commands here`,
    { hint: "Use --auth token (the default) or --auth password, or --addr 127.0.0.1:PORT" },
  );
}

/** The URL a person opens (an address for every interface is reached on loopback from here). */
export function baseUrl(address: ListenAddress): string {
  const host = address.hostname === "0.0.0.0" || address.hostname === "::" ? "127.0.0.1" : address.hostname;
  return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}
