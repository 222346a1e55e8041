/**
 * @module
 * The provider-setup endpoints answer only a client on this machine: the peer address the listener saw
 * must be loopback. Headers never count here, not even with `behind_proxy`: a request that carries a
 * forwarding header came through a proxy, and a proxy on loopback would make every client look local.
 */
import type { MiddlewareHandler } from "hono";
import type { ServeEnv } from "./auth.ts";
import { refuse } from "./refuse.ts";

const FORWARDING_HEADERS = ["x-forwarded-for", "x-forwarded-host", "x-real-ip", "forwarded"];

/** 127.0.0.0/8, ::1, and an IPv4-mapped 127.x address. */
export function isLoopbackPeer(remote: string | undefined): boolean {
  if (remote === undefined) return false;
  const address = remote.toLowerCase().replace(/^\[|\]$/g, "");
  if (address === "::1" || address === "0:0:0:0:0:0:0:1") return true;
  const v4 = address.replace(/^::ffff:/, "");
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

export function loopbackOnly(): MiddlewareHandler<ServeEnv> {
  return async function loopbackOnly(c, next) {
    const proxied = FORWARDING_HEADERS.some((name) => c.req.header(name) !== undefined);
    if (!isLoopbackPeer(c.env?.remote) || proxied) {
      return c.json({
        code: "setup.loopback_only",
        message: "Refused: provider setup answers only a browser on the machine serve runs on",
        hint: "Open serve through 127.0.0.1 on that machine, or run `reasonix setup` in a shell there",
      }, 403);
    }
    if (c.req.method === "POST" && !(c.req.header("content-type") ?? "").includes("application/json")) {
      return refuse(c, 415, "request.not_json", "Refused: setup takes a JSON body");
    }
    await next();
  };
}
