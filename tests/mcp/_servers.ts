/**
 * The real MCP servers the tests talk to: two reference servers from npm (run by this Deno, pinned, from
 * a directory without deno.json so the repository's lock file is not touched) and the fixtures in
 * tests/fixtures/mcp.
 */
import { join, resolve } from "node:path";
import type { McpServerSpec } from "../../src/mcp/expand.ts";
import type { ConnectOptions } from "../../src/mcp/client.ts";

export const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";
export const FILESYSTEM = "npm:@modelcontextprotocol/server-filesystem@2026.8.31";
const FIXTURES = resolve(import.meta.dirname!, "../fixtures/mcp");

export function npmServer(name: string, specifier: string, args: string[]): McpServerSpec {
  return stdio(name, Deno.execPath(), ["run", "-A", "--no-lock", "--quiet", specifier, ...args]);
}

export function fixtureServer(name: string, file: string, args: string[] = [], env = {}): McpServerSpec {
  return { ...stdio(name, Deno.execPath(), ["run", "-A", "--quiet", join(FIXTURES, file), ...args]), env };
}

export function stdio(name: string, command: string, args: string[]): McpServerSpec {
  return { name, type: "stdio", command, args, env: {}, url: "", headers: {} };
}

export function connectOptions(cwd: string, overrides: Partial<ConnectOptions> = {}): ConnectOptions {
  return {
    cwd,
    baseEnv: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" },
    // The first run of an npm server may download it.
    startupTimeoutMs: 120_000,
    callTimeoutMs: 30_000,
    ...overrides,
  };
}
