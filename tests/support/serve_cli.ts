/**
 * `reasonix serve` started as a person starts it (the real CLI, under the Deno fence) on 127.0.0.1
 * port 0, with the token URL it prints read from stdout, and a fetch helper carrying that token.
 */
import { cliCommand } from "./cli.ts";

export interface Server {
  url: string;
  token: string;
  child: Deno.ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

export async function startServe(home: string, cwd: string, args: string[] = []): Promise<Server> {
  const child = cliCommand(["serve", "--addr", "127.0.0.1:0", ...args], { home, cwd, detached: true })
    .spawn();
  const output: string[] = [];
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const deadline = Date.now() + 60_000;
  while (!/Open (\S+)\/\?token=(\S+)\n/.test(text)) {
    if (Date.now() > deadline) throw new Error(`serve did not start: ${text}`);
    const { value, done } = await lines.read();
    if (done) throw new Error(`serve exited: ${text}`);
    text += value;
  }
  output.push(text);
  const [, url, token] = /Open (\S+)\/\?token=(\S+)\n/.exec(text)!;
  const drain = (async () => {
    while (!(await lines.read()).done) { /* keep the pipe flowing */ }
  })();
  const stderr = child.stderr.pipeTo(new WritableStream());
  return {
    url: url!,
    token: token!,
    child,
    output,
    async stop() {
      Deno.kill(-child.pid, "SIGTERM");
      await child.status;
      await drain;
      await stderr;
    },
  };
}

export function api(server: Server) {
  return (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (!headers.has("authorization")) headers.set("authorization", `Bearer ${server.token}`);
    if (json !== undefined) headers.set("content-type", "application/json");
    return fetch(`${server.url}${path}`, {
      ...rest,
      headers,
      ...(json ? { body: JSON.stringify(json) } : {}),
    });
  };
}
