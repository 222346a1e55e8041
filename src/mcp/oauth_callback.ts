/**
 * @module
 * The loopback listener an OAuth login's browser is sent back to: `http://localhost:<port>/callback`,
 * bound to 127.0.0.1 only, on the configured `callback_port` or a free one. It accepts only a callback
 * carrying the login's own `state`; any other request is turned away and the login keeps waiting, so a
 * page that guesses the port cannot end it or slip in a code of its own.
 */
import { ReasonixError } from "../lib/errors.ts";

export interface CallbackListener {
  port: number;
  /** What the authorisation server is told to redirect to. */
  redirectUrl: string;
  /**
   * The code of the next callback with `state`; fails on an error callback, after `timeoutMs`, or when
   * `signal` aborts (the session that started the login closed).
   */
  next(state: string, timeoutMs: number, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

interface Arrival {
  state: string | null;
  code: string | null;
  error: string | null;
  description: string | null;
}

export function listenForCallback(port: number): CallbackListener {
  const arrivals: Arrival[] = [];
  let wake: (() => void) | undefined;
  const handler = (request: Request): Response => {
    const url = new URL(request.url);
    if (request.method !== "GET" || url.pathname !== "/callback") {
      return new Response("Not found\n", { status: 404 });
    }
    const get = (key: string) => url.searchParams.get(key);
    arrivals.push({
      state: get("state"),
      code: get("code"),
      error: get("error"),
      description: get("error_description"),
    });
    wake?.();
    const text = get("error") !== null
      ? "Reasonix: the authorisation was not granted. You can close this tab.\n"
      : "Reasonix: authorisation received. You can close this tab and return to the terminal.\n";
    return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });
  };
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handler);
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new ReasonixError(
        "mcp.callback_port_taken",
        `Cannot listen for the OAuth callback on 127.0.0.1:${port}: the port is already in use`,
        { hint: "Stop what listens there, or set another `callback_port` for this server", cause: error },
      );
    }
    throw error;
  }
  const bound = server.addr.port;
  return {
    port: bound,
    redirectUrl: `http://localhost:${bound}/callback`,
    async next(state, timeoutMs, signal) {
      const deadline = Date.now() + timeoutMs;
      while (true) {
        if (signal?.aborted) {
          throw new ReasonixError(
            "mcp.login_cancelled",
            "The login was cancelled before the browser came back",
          );
        }
        const arrival = arrivals.shift();
        if (arrival !== undefined && arrival.state === state) return codeOf(arrival);
        if (arrival !== undefined) continue;
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new ReasonixError(
            "mcp.login_timeout",
            `No OAuth callback arrived within ${Math.round(timeoutMs / 1000)} s`,
            { hint: "Open the printed URL in a browser on this machine and finish the login there" },
          );
        }
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", done);
            resolve();
          };
          const timer = setTimeout(done, left);
          wake = done;
          signal?.addEventListener("abort", done, { once: true });
        });
        wake = undefined;
      }
    },
    async close() {
      await server.shutdown();
    },
  };
}

function codeOf(arrival: Arrival): string {
  if (arrival.error !== null) {
    const detail = arrival.description ? `: ${arrival.description}` : "";
    throw new ReasonixError(
      "mcp.login_refused",
      `The authorisation server refused the login: ${arrival.error}${detail}`,
    );
  }
  if (arrival.code === null || arrival.code === "") {
    throw new ReasonixError("mcp.login_refused", "The OAuth callback carried no authorisation code");
  }
  return arrival.code;
}
