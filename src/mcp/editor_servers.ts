/**
 * @module
 * Servers an editor names for one session (ACP `session/new`): taken as written (no `${VAR}` expansion,
 * no trust gate: the editor acts for the user), and made startable under the Deno fence, whose lists were
 * fixed when the process started. A stdio command the fence does not list is started through `sh`, which
 * the fence lets the kernel run for `bash` anyway (`exec` replaces the shell, so the server is the
 * process the kernel stops); a remote host the fence does not list cannot be reached, and the server is
 * refused with a message naming the fence.
 */
import type { McpServerDecl } from "../config/types.ts";
import type { McpServerSpec } from "./expand.ts";

/** `exec "$0" "$@"`: the shell runs the command with its arguments unchanged, then is gone. */
export const EXEC_SCRIPT = 'exec "$0" "$@"';

/** The declaration of a server an editor names: the editor gives no timeouts, no place in a file, no trust. */
export function editorDecl(
  fields: Pick<McpServerDecl, "name" | "type"> & Partial<McpServerDecl>,
): McpServerDecl {
  return {
    command: "",
    args: [],
    env: {},
    url: "",
    headers: {},
    toolTimeoutSeconds: {},
    autoStart: true,
    source: "editor",
    file: "the editor",
    at: {},
    ...fields,
  };
}

export function editorSpec(decl: McpServerDecl): { spec: McpServerSpec } | { problem: string } {
  const { name, type, command, args, env, url, headers } = decl;
  const spec: McpServerSpec = { name, type, command, args, env, url, headers };
  if (type === "stdio") {
    if (command === "") return { problem: refusal(name, "names no command") };
    if (mayRun(command)) return { spec };
    if (mayRun("sh")) {
      return { spec: { ...spec, command: "sh", args: ["-c", EXEC_SCRIPT, command, ...args] } };
    }
    return {
      problem: refusal(name, `cannot start "${command}": the Deno fence does not let this process run it`),
    };
  }
  const host = hostOf(url);
  // The URL itself is not repeated: it may carry a token.
  if (host === null) return { problem: refusal(name, "has a URL that is not http:// or https://") };
  if (Deno.permissions.querySync({ name: "net", host }).state === "granted") return { spec };
  return {
    problem: refusal(name, `cannot reach ${host}: the Deno fence does not let this process connect there`),
  };
}

function mayRun(command: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "run", command }).state === "granted";
  } catch {
    return false;
  }
}

function refusal(name: string, why: string): string {
  const fence = /fence/.test(why)
    ? " (its lists were fixed when `reasonix acp` started: configure the server in Reasonix so the fence " +
      "allows it, or set REASONIX_NO_FENCE=1)"
    : "";
  return `MCP server "${name}" from the editor ${why}${fence}`;
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    return `${parsed.hostname}:${parsed.port || (parsed.protocol === "https:" ? "443" : "80")}`;
  } catch {
    return null;
  }
}
