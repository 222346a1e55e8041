/**
 * The real MCP servers the tests talk to: two reference servers from npm (run by this Deno, pinned, from
 * a directory without deno.json so the repository's lock file is not touched) and the fixtures in
 * tests/fixtures/mcp.
 */
import { join, resolve } from "node:path";
import type { McpServerSpec } from "../../src/mcp/expand.ts";
import type { ConnectOptions } from "../../src/mcp/client.ts";
import { hostEnv } from "../support/host_env.ts";

export const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";
export const FILESYSTEM = "npm:@modelcontextprotocol/server-filesystem@2026.8.31";
/** Exposes a stdio server over SSE or Streamable HTTP. */
export const SUPERGATEWAY = "npm:supergateway@4.0.0";
const FIXTURES = resolve(import.meta.dirname!, "../fixtures/mcp");

export function npmServer(name: string, specifier: string, args: string[]): McpServerSpec {
  return stdio(name, Deno.execPath(), ["run", "-A", "--no-lock", "--quiet", specifier, ...args]);
}

export function fixtureServer(name: string, file: string, args: string[] = [], env = {}): McpServerSpec {
  return { ...stdio(name, Deno.execPath(), ["run", "-A", "--quiet", join(FIXTURES, file), ...args]), env };
}

/** A config.toml `[[plugins]]` entry named `name` that runs the tools_server.ts fixture with `args`. */
export function toolsServerPlugin(
  name: string,
  options: { args?: string[]; autoStart?: boolean } = {},
): string {
  const args = ["run", "-A", "--quiet", join(FIXTURES, "tools_server.ts"), ...(options.args ?? [])];
  return [
    `[[plugins]]`,
    `name = "${name}"`,
    `command = ${JSON.stringify(Deno.execPath())}`,
    `args = ${JSON.stringify(args)}`,
    ...(options.autoStart === false ? [`auto_start = false`] : []),
    ``,
  ].join("\n");
}

export function stdio(name: string, command: string, args: string[]): McpServerSpec {
  return { name, type: "stdio", command, args, env: {}, url: "", headers: {} };
}

export function connectOptions(cwd: string, overrides: Partial<ConnectOptions> = {}): ConnectOptions {
  return {
    cwd,
    baseEnv: hostEnv(),
    // The first run of an npm server may download it.
    startupTimeoutMs: 120_000,
    callTimeoutMs: 30_000,
    ...overrides,
  };
}

/** The arguments that run an npm package with this Deno without touching the repository's lock file. */
export function npmRun(specifier: string, args: string[]): string[] {
  return ["run", "-A", "--no-lock", "--quiet", specifier, ...args];
}

/** The process environment a Controller passes on so an npm server run by Deno finds Deno and its cache. */
export function denoEnv(): Record<string, string> {
  return hostEnv();
}

/**
 * The config.toml `[[plugins]]` entry that runs server-everything over stdio, named "everything", with
 * `extra` lines before its 120 s start-up timeout (the first run of an npm server may download it).
 */
export function everythingPlugin(extra: string[] = []): string {
  return [
    `[[plugins]]`,
    `name = "everything"`,
    `command = ${JSON.stringify(Deno.execPath())}`,
    `args = ${JSON.stringify(npmRun(EVERYTHING, ["stdio"]))}`,
    ...extra,
    `startup_timeout_seconds = 120`,
  ].join("\n");
}

export interface RunningServer {
  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string;
  /** Stops the server's whole process group. */
  stop(): Promise<void>;
}

/**
 * Runs an npm package's network server (tests/fixtures/mcp/loopback.ts binds it to 127.0.0.1 on a free
 * port) in its own process group, from `cwd`, and waits until it listens. The first run may download it.
 */
export async function loopbackServer(
  specifier: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<RunningServer> {
  const portFile = join(options.cwd, `port-${crypto.randomUUID()}`);
  const child = new Deno.Command("setsid", {
    args: [Deno.execPath(), "run", "-A", "--no-config", "--no-lock", "--quiet", join(FIXTURES, "loopback.ts")]
      .concat([portFile, specifier, ...args]),
    cwd: options.cwd,
    env: options.env ?? {},
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const drained = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderr = (stderr + chunk).slice(-4000)) }),
  ).catch(() => {});
  let exited = false;
  const status = child.status.finally(() => exited = true);
  const stop = async () => {
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      try {
        Deno.kill(-child.pid, signal);
      } catch {
        break; // the group is gone
      }
      const grace = new Promise((resolve) => setTimeout(resolve, 2000, "late"));
      if (await Promise.race([status, grace]) !== "late") break;
    }
    await status;
    await drained;
  };
  const deadline = Date.now() + 180_000;
  while (true) {
    const port = await Deno.readTextFile(portFile).catch(() => "");
    if (port !== "") return { url: (path) => `http://127.0.0.1:${port}${path}`, stop };
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`${specifier} did not start listening: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs supergateway, exposing the stdio server `argv` starts over SSE or (stateful) Streamable HTTP. */
export function gateway(
  cwd: string,
  output: "sse" | "streamableHttp",
  argv: string[],
  env: Record<string, string> = hostEnv(),
): Promise<RunningServer> {
  // supergateway runs `--stdio` through a shell.
  const line = argv.map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(" ");
  const args = ["--stdio", line, "--outputTransport", output, "--logLevel", "none"];
  if (output === "streamableHttp") args.push("--stateful");
  return loopbackServer(`${SUPERGATEWAY}/dist/index.js`, args, { cwd, env });
}
