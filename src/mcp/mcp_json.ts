/**
 * @module
 * Reads a project's `.mcp.json` (Claude Code's `{"mcpServers": {"<name>": {...}}}`), so existing project
 * files work unchanged. Like reasonix.toml, a symlink out of the workspace is refused; problems name
 * `<file>:<line>:<col>`; unknown keys are warnings.
 */
import { join } from "node:path";
import { ConfigError, describeValue } from "../config/errors.ts";
import { mcpServerDecl } from "../config/_mcp_servers.ts";
import type { ConfigWarning, McpServerDecl } from "../config/types.ts";
import { describeRefusal, readConfined } from "../lib/confined_read.ts";
import { ReasonixError } from "../lib/errors.ts";
import { JsonSyntaxError, type LocatedJson, parseLocatedJson } from "./_json_locate.ts";

export const MCP_JSON_FILE = ".mcp.json";

type Check = "string" | "strings" | "table" | "type" | "oauth";

const FIELDS: Record<string, Check> = {
  type: "type",
  command: "string",
  args: "strings",
  env: "table",
  url: "string",
  headers: "table",
  oauth: "oauth",
};

/** Claude Code's `oauth` block, by its key, and our `[[plugins]]` key for each. */
const OAUTH_KEYS: Record<string, { key: string; check: (value: unknown) => boolean; expected: string }> = {
  clientId: { key: "client_id", check: (v) => typeof v === "string" && v !== "", expected: "a string" },
  clientSecret: {
    key: "client_secret",
    check: (v) => typeof v === "string" && v !== "",
    expected: "a string",
  },
  callbackPort: {
    key: "callback_port",
    check: (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535,
    expected: "a port number",
  },
  scopes: { key: "scopes", check: (v) => typeof v === "string", expected: "a space-separated string" },
};

export interface McpJsonRead {
  servers: McpServerDecl[];
  warnings: ConfigWarning[];
}

export async function readMcpJson(workspace: string, hidden: string[]): Promise<McpJsonRead> {
  const file = join(workspace, MCP_JSON_FILE);
  const read = await readConfined(file, { roots: [workspace], hidden }).catch((error) => {
    throw new ReasonixError("config.read", `Cannot read "${file}": ${(error as Error).message}`, {
      cause: error,
    });
  });
  if (read.kind === "missing") return { servers: [], warnings: [] };
  if (read.kind === "refused") {
    return { servers: [], warnings: [{ file, line: 1, column: 1, message: describeRefusal(file, read) }] };
  }
  if (read.kind !== "text") throw new ReasonixError("config.read", `Cannot read "${file}": ${read.reason}`);
  return parseMcpJson(read.text, file);
}

export function parseMcpJson(text: string, file: string): McpJsonRead {
  let json: LocatedJson;
  try {
    json = parseLocatedJson(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new ConfigError("config.parse", `Cannot parse JSON: ${error.message}`, { file, ...error.at });
  }
  const fail = (path: (string | number)[], detail: string) =>
    new ConfigError("config.type", detail, { file, ...json.position(path), key: path.join(".") });
  const root = json.value;
  if (!isObject(root)) throw fail([], `Cannot read "${file}": expected a JSON object`);
  const warnings: ConfigWarning[] = [];
  const servers = root.mcpServers;
  if (servers === undefined) return { servers: [], warnings };
  if (!isObject(servers)) {
    throw fail(["mcpServers"], `Cannot read "mcpServers": expected an object, got ${describeValue(servers)}`);
  }
  const decls = Object.entries(servers).map(([name, entry]) => {
    const path = ["mcpServers", name];
    const label = `mcpServers.${name}`;
    if (!isObject(entry)) throw fail(path, `Cannot read "${label}": expected an object`);
    for (const [key, value] of Object.entries(entry)) {
      const check = FIELDS[key];
      if (check === undefined) {
        warnings.push({ file, ...json.position([...path, key]), message: `unknown key "${label}.${key}"` });
      } else {
        const problem = fieldProblem(check, value);
        if (problem) throw fail([...path, key], `Cannot read "${label}.${key}": expected ${problem}`);
      }
    }
    const oauth = isObject(entry.oauth)
      ? oauthFields(entry.oauth, [...path, "oauth"], { warnings, json, file })
      : {};
    return mcpServerDecl({ ...entry, ...oauth }, {
      label,
      file,
      source: "mcp_json",
      position: (key) => json.position(key === undefined ? path : [...path, ...jsonKey(key)]),
      fail: (key, detail) => fail(key === undefined ? path : [...path, key], detail),
    }, name);
  });
  return { servers: decls, warnings };
}

/** The `oauth` block's values under our `[[plugins]]` keys; an unknown key is a warning, a wrong type fails. */
function oauthFields(
  block: Record<string, unknown>,
  path: string[],
  at: { warnings: ConfigWarning[]; json: LocatedJson; file: string },
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block)) {
    const known = OAUTH_KEYS[key];
    const where = { file: at.file, ...at.json.position([...path, key]) };
    if (known === undefined) {
      at.warnings.push({ ...where, message: `unknown key "${path.slice(1).join(".")}.${key}"` });
      continue;
    }
    if (!known.check(value)) {
      const detail = `Cannot read "${path.slice(1).join(".")}.${key}": expected ${known.expected}, got ${
        describeValue(value)
      }`;
      throw new ConfigError("config.type", detail, { ...where, key: [...path, key].join(".") });
    }
    fields[known.key] = key === "scopes" ? (value as string).split(/\s+/).filter(Boolean) : value;
  }
  return fields;
}

/** Where a `[[plugins]]` key is written in `.mcp.json`: the OAuth ones inside `oauth`. */
function jsonKey(key: string): string[] {
  const found = Object.entries(OAUTH_KEYS).find(([, value]) => value.key === key);
  return found ? ["oauth", found[0]] : [key];
}

function fieldProblem(check: Check, value: unknown): string | undefined {
  const got = `, got ${describeValue(value)}`;
  if (check === "oauth") return isObject(value) ? undefined : `an object${got}`;
  if (check === "string") return typeof value === "string" ? undefined : `a string${got}`;
  if (check === "type") {
    return ["stdio", "http", "sse"].includes(value as string) ? undefined : `"stdio", "http" or "sse"${got}`;
  }
  if (check === "strings") {
    return Array.isArray(value) && value.every((item) => typeof item === "string")
      ? undefined
      : `an array of strings${got}`;
  }
  return isObject(value) && Object.values(value).every((item) => typeof item === "string")
    ? undefined
    : `an object of strings${got}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
