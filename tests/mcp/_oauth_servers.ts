/**
 * The OAuth servers the tests log in to, as child processes bound to 127.0.0.1: the SDK's own example
 * (`simpleStreamableHttp --oauth`, tests/fixtures/mcp/sdk_oauth_example.ts) and the fixture with
 * refresh-token rotation (tests/fixtures/mcp/oauth_server.ts).
 */
import { join, resolve } from "node:path";
import type { McpServerSpec } from "../../src/mcp/expand.ts";

const ROOT = resolve(import.meta.dirname!, "../..");
const FIXTURES = join(ROOT, "tests/fixtures/mcp");

export interface RunningServer {
  url: string;
  base: string;
  stop(): Promise<void>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function spawn(
  args: string[],
  env: Record<string, string>,
  ready: (lines: string[]) => boolean,
): Promise<{ child: Deno.ChildProcess; lines: string[] }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--config", join(ROOT, "deno.json"), ...args],
    env,
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
  const lines: string[] = [];
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  while (!ready(lines)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before it was ready: ${lines.join(" | ")}`);
    buffer += value;
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    lines.push(...parts);
  }
  // Keep draining so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  return { child, lines };
}

async function stopChild(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch { /* already gone */ }
  await child.status;
}

/** The SDK's example server with `--oauth` (no refresh tokens, no revocation). */
export async function sdkExampleServer(): Promise<RunningServer> {
  const [mcpPort, authPort] = [freePort(), freePort()];
  const { child } = await spawn(
    [join(FIXTURES, "sdk_oauth_example.ts"), "--oauth"],
    { MCP_PORT: String(mcpPort), MCP_AUTH_PORT: String(authPort) },
    (lines) =>
      lines.some((l) => l.includes("Authorization Server listening")) &&
      lines.some((l) => l.includes("Streamable HTTP Server listening")),
  );
  return {
    url: `http://localhost:${mcpPort}/mcp`,
    base: `http://localhost:${mcpPort}`,
    stop: () => stopChild(child),
  };
}

/** The rotating fixture; `lifetime` is the access token's in seconds. */
export async function rotatingServer(lifetime = 3600): Promise<RunningServer> {
  const { child, lines } = await spawn(
    [join(FIXTURES, "oauth_server.ts"), String(lifetime)],
    {},
    (l) => l.length > 0,
  );
  const base = `http://127.0.0.1:${lines[0]!.trim()}`;
  return { url: `${base}/mcp`, base, stop: () => stopChild(child) };
}

export async function serverStats(
  server: RunningServer,
): Promise<{ refreshes: number; revoked: number; authorizations: number }> {
  return await (await fetch(`${server.base}/stats`)).json();
}

/** The config.toml `[[plugins]]` entry of an HTTP server named "gated" at `url`, then `extra` lines. */
export function gatedPlugin(url: string, extra = ""): string {
  return `[[plugins]]\nname = "gated"\ntype = "http"\nurl = "${url}"\n${extra}`;
}

export function httpSpec(name: string, url: string, oauth: McpServerSpec["oauth"] = {}): McpServerSpec {
  return { name, type: "http", command: "", args: [], env: {}, url, headers: {}, oauth };
}

/** What a browser does with the authorisation URL: follow its redirects to the loopback callback. */
export async function followInBrowser(url: URL): Promise<void> {
  const response = await fetch(url);
  await response.body?.cancel();
}
