/**
 * @module
 * `${VAR}` and `${VAR:-default}` in an MCP server's command, args, env, url, headers and OAuth client
 * credentials. A variable that
 * is unset (or empty, for `:-`) takes the default; one without a default is a problem at the field's
 * file:line:col, and only that server is left out.
 */
import type { McpServerDecl } from "../config/types.ts";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** A declaration with every reference replaced: what is spawned or connected to. */
export type McpServerSpec = Pick<
  McpServerDecl,
  "name" | "type" | "command" | "args" | "env" | "url" | "headers" | "oauth"
>;

export type Lookup = (name: string) => string | undefined;

export class MissingVariable extends Error {
  constructor(readonly variable: string, readonly field: string) {
    super(`"${field}" uses \${${variable}}, which is not set and has no default`);
    this.name = "MissingVariable";
  }
}

export function expandText(text: string, lookup: Lookup, field: string): string {
  return text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const value = lookup(name);
    if (fallback !== undefined) return value === undefined || value === "" ? fallback : value;
    if (value === undefined) throw new MissingVariable(name, field);
    return value;
  });
}

/** Throws MissingVariable naming the first field that cannot be expanded. */
export function expandServer(decl: McpServerDecl, lookup: Lookup): McpServerSpec {
  const map = (record: Record<string, string>, field: string) =>
    Object.fromEntries(
      Object.entries(record).map(([key, value]) => [key, expandText(value, lookup, `${field}.${key}`)]),
    );
  return {
    name: decl.name,
    type: decl.type,
    command: expandText(decl.command, lookup, "command"),
    args: decl.args.map((arg, index) => expandText(arg, lookup, `args[${index}]`)),
    env: map(decl.env, "env"),
    url: expandText(decl.url, lookup, "url"),
    headers: map(decl.headers, "headers"),
    oauth: {
      ...decl.oauth,
      ...(decl.oauth?.clientId !== undefined
        ? { clientId: expandText(decl.oauth.clientId, lookup, "client_id") }
        : {}),
      ...(decl.oauth?.clientSecret !== undefined
        ? { clientSecret: expandText(decl.oauth.clientSecret, lookup, "client_secret") }
        : {}),
    },
  };
}

/** The names a declaration refers to, for `mcp get` and the trust review. */
export function referencedVariables(decl: McpServerDecl): string[] {
  const texts = [
    decl.command,
    ...decl.args,
    ...Object.values(decl.env),
    decl.url,
    ...Object.values(decl.headers),
    decl.oauth?.clientId ?? "",
    decl.oauth?.clientSecret ?? "",
  ];
  const names = texts.flatMap((text) => [...text.matchAll(REFERENCE)].map((match) => match[1]!));
  return [...new Set(names)].sort();
}
