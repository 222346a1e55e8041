/**
 * @module
 * Approval of project-declared MCP servers, one exact definition per server and workspace. It lives in
 * the same `<home>/trust.json` as `reasonix trust`, under `mcpServers`, keyed by the workspace's real path
 * and the server's name. The digest covers the definition as written (before `${VAR}` expansion): type,
 * command, args, env names and values, url and header names. Env values are in it because NODE_OPTIONS or
 * LD_PRELOAD run code; header values are not, so rotating a token written there does not ask again.
 */
import { canonicalJson } from "../lib/canonical_json.ts";
import type { Paths } from "../config/paths.ts";
import { projectConfigDigest, workspaceKey } from "../config/project_trust.ts";
import { readTrustFile, writeTrustFile } from "../config/trust.ts";
import type { McpServerDecl } from "../config/types.ts";

export type McpTrust = "user" | "trusted" | "untrusted" | "changed";

interface StoredServer {
  sha256: string;
  file: string;
  trustedAt: string;
}

export async function definitionDigest(decl: McpServerDecl): Promise<string> {
  const definition = {
    type: decl.type,
    command: decl.command,
    args: decl.args,
    env: decl.env,
    url: decl.url,
    headers: Object.keys(decl.headers).sort(),
  };
  return await projectConfigDigest(new TextEncoder().encode(canonicalJson(definition)));
}

export function fromProject(decl: McpServerDecl): boolean {
  return decl.source === "project" || decl.source === "mcp_json";
}

/** `user` for servers of the user's own files: they never need approval. */
export async function mcpTrust(paths: Paths, workspace: string, decl: McpServerDecl): Promise<McpTrust> {
  if (!fromProject(decl)) return "user";
  const stored =
    (await storedServers(paths, workspace).catch(() => ({})) as Record<string, unknown>)[decl.name];
  if (!isStored(stored)) return "untrusted";
  return stored.sha256 === await definitionDigest(decl) ? "trusted" : "changed";
}

export async function trustMcpServer(
  paths: Paths,
  workspace: string,
  decl: McpServerDecl,
  now: Date = new Date(),
): Promise<void> {
  const trust = await readTrustFile(paths.trustFile);
  const key = await workspaceKey(workspace);
  const all = tableOf(trust.mcpServers);
  const entry: StoredServer = {
    sha256: await definitionDigest(decl),
    file: decl.file,
    trustedAt: now.toISOString(),
  };
  all[key] = { ...tableOf(all[key]), [decl.name]: entry };
  trust.mcpServers = all;
  await writeTrustFile(paths.trustFile, trust);
}

/** Forgets the approval of one server; false when there was none. */
export async function revokeMcpServer(paths: Paths, workspace: string, name: string): Promise<boolean> {
  const trust = await readTrustFile(paths.trustFile);
  const key = await workspaceKey(workspace);
  const all = tableOf(trust.mcpServers);
  const servers = tableOf(all[key]);
  if (!Object.hasOwn(servers, name)) return false;
  delete servers[name];
  all[key] = servers;
  trust.mcpServers = all;
  await writeTrustFile(paths.trustFile, trust);
  return true;
}

async function storedServers(paths: Paths, workspace: string): Promise<Record<string, unknown>> {
  const trust = await readTrustFile(paths.trustFile);
  return tableOf(tableOf(trust.mcpServers)[await workspaceKey(workspace)]);
}

function isStored(value: unknown): value is StoredServer {
  return typeof value === "object" && value !== null && typeof (value as StoredServer).sha256 === "string";
}

function tableOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? { ...value as Record<string, unknown> }
    : {};
}
