/**
 * The serve app over a real Controller against the DeepSeek simulator, driven with `app.request()`
 * (no port), and a reader for its server-sent events.
 */
import { resolvePaths } from "../../../src/config/paths.ts";
import { createApp } from "../../../src/frontends/serve/app.ts";
import { Auth, type AuthOptions } from "../../../src/frontends/serve/auth.ts";
import { SessionHub } from "../../../src/frontends/serve/hub.ts";
import { LoginLimiter } from "../../../src/frontends/serve/rate_limit.ts";
import { DeepSeekSim, type Responder, type ScriptedReply } from "../../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../../support/cli.ts";

export const ORIGIN = "http://127.0.0.1:8787";
export const TOKEN = "test-token-0123456789abcdef";

export interface Served {
  sim: DeepSeekSim;
  workspace: string;
  home: string;
  hub: SessionHub;
  app: ReturnType<typeof createApp>;
  /** A request from a client on 127.0.0.1 with the right bearer token (unless `headers` says otherwise). */
  call(path: string, init?: RequestInit & { json?: unknown; remote?: string }): Promise<Response>;
  close(): Promise<void>;
}

export interface ServedOptions {
  script?: ScriptedReply[] | Responder;
  auth?: Partial<AuthOptions>;
  files?: Record<string, string>;
  permissionMode?: "ask" | "auto" | "yolo" | "plan";
  limiter?: LoginLimiter;
  listenHost?: string;
  behindProxy?: boolean;
  heartbeatMs?: number;
  idleMs?: number;
  /** More config.toml for the home (an MCP server, say). */
  extraToml?: string;
  /** The whole config.toml of the home instead of the simulator's (provider setup). */
  configToml?: (simUrl: string) => string;
  /** The key the simulator demands (default: any). */
  simKey?: string;
  /** The sessions' environment (default: empty). */
  env?: Record<string, string>;
}

export async function served(options: ServedOptions = {}): Promise<Served> {
  const sim = await DeepSeekSim.start({
    script: options.script ?? [],
    ...(options.simKey ? { apiKey: options.simKey } : {}),
  });
  const home = await makeHome({
    simUrl: sim.url,
    ...(options.extraToml ? { extraToml: options.extraToml } : {}),
  });
  if (options.configToml) await Deno.writeTextFile(`${home}/config.toml`, options.configToml(sim.url));
  const workspace = await makeWorkspace(options.files ?? { "a.txt": "alpha\n" });
  const paths = resolvePaths({ REASONIX_HOME: home });
  const hub = new SessionHub({
    boot: {
      cwd: workspace,
      env: options.env ?? {},
      paths,
      flags: { permissionMode: options.permissionMode ?? "ask" },
    },
    heartbeatMs: options.heartbeatMs ?? 0,
    idleMs: options.idleMs ?? 0,
  });
  const behindProxy = options.behindProxy ?? false;
  const auth = new Auth({
    mode: "token",
    token: TOKEN,
    behindProxy,
    limiter: options.limiter ?? new LoginLimiter(),
    ...options.auth,
  });
  const app = createApp({
    hub,
    auth,
    admin: { workspace, paths },
    env: options.env ?? {},
    guard: { listenHost: options.listenHost ?? "127.0.0.1", behindProxy },
  });
  return {
    sim,
    workspace,
    home,
    hub,
    app,
    call(path, init = {}) {
      const { json, remote, ...rest } = init;
      const headers = new Headers({ authorization: `Bearer ${TOKEN}` });
      for (const [name, value] of new Headers(rest.headers)) headers.set(name, value);
      if (json !== undefined) headers.set("content-type", "application/json");
      const request = { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) };
      return Promise.resolve(app.request(`${ORIGIN}${path}`, request, { remote: remote ?? "127.0.0.1" }));
    },
    async close() {
      await hub.closeAll();
      await sim.close();
      await removeAll(home, workspace);
    },
  };
}

export interface SseFrame {
  id?: string;
  // deno-lint-ignore no-explicit-any
  data: any;
}

/** Reads server-sent events from a response, frame by frame. */
export class SseReader {
  readonly frames: SseFrame[] = [];
  #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";

  constructor(response: Response) {
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** Reads until a frame satisfies `match`; returns it. */
  async until(match: (frame: SseFrame) => boolean, timeoutMs = 20_000): Promise<SseFrame> {
    const deadline = Date.now() + timeoutMs;
    let index = 0;
    while (true) {
      for (; index < this.frames.length; index++) if (match(this.frames[index]!)) return this.frames[index]!;
      if (Date.now() > deadline) throw new Error(`No matching SSE frame in ${timeoutMs} ms`);
      await this.#readMore(deadline);
    }
  }

  async #readMore(deadline: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("SSE read timed out")), Math.max(1, deadline - Date.now()));
    });
    try {
      const { value, done } = await Promise.race([this.#reader.read(), timeout]);
      if (done) throw new Error("SSE stream ended");
      this.#buffer += value;
    } finally {
      clearTimeout(timer);
    }
    let end: number;
    while ((end = this.#buffer.indexOf("\n\n")) >= 0) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      this.frames.push(parseFrame(block));
    }
  }

  async close(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = { data: null };
  for (const line of block.split("\n")) {
    if (line.startsWith("id: ")) frame.id = line.slice(4);
    if (line.startsWith("data: ")) frame.data = JSON.parse(line.slice(6));
  }
  return frame;
}

export function ofType(type: string): (frame: SseFrame) => boolean {
  return (frame) => frame.data?.type === type;
}
