/**
 * @module
 * The `reasonix mcp` command tree. Only the parsing lives here; each action loads mcp_cmd.ts when it
 * runs, so `--help` and every other command never load it, and `--help` does nothing else.
 */
import { Command } from "commander";
import type { McpIo } from "./mcp_cmd.ts";

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function mcpCommand(io: McpIo): Command {
  const mcp = new Command("mcp").description("Manage MCP (Model Context Protocol) servers");
  const load = () => import("./mcp_cmd.ts");
  mcp.command("list").description("The MCP servers that apply here, with their source and trust")
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (opts: { json?: boolean; dir?: string }) => await (await load()).mcpListCmd(opts));
  mcp.command("get").description("One server's definition as written, where, and its trust")
    .argument("<name>").option("--json", "machine-readable output").option(
      "--dir <path>",
      "workspace directory",
    )
    .action(async (name: string, opts: { json?: boolean; dir?: string }) =>
      await (await load()).mcpGetCmd(name, opts)
    );
  mcp.command("add").description(
    "Add a server to your config.toml: `add NAME -- CMD [ARGS...]` or `add NAME --http URL`",
  )
    .argument("<name>").argument("[command...]", `the stdio server's command and arguments, after "--"`)
    .option("--http <url>", "a Streamable HTTP server at this URL")
    .option("--sse <url>", "a legacy HTTP+SSE server at this URL")
    .option("--header <K=V>", "an HTTP header (repeatable)", collect, [])
    .option("--env <K=V>", "an environment variable of the server (repeatable)", collect, [])
    .option("--client-id <id>", "OAuth: a pre-registered client id (otherwise the client registers itself)")
    .option(
      "--client-secret <secret>",
      "OAuth: the pre-registered client's secret (a ${VAR} reference works)",
    )
    .option("--callback-port <port>", "OAuth: a fixed loopback port for the login callback")
    .option(
      "--scope <scope>",
      "OAuth: a scope to ask for when the server names none (repeatable)",
      collect,
      [],
    )
    .option("--dir <path>", "workspace directory")
    .action(async (name: string, command: string[], opts: Record<string, unknown>) =>
      await (await load()).mcpAddCmd(name, command, opts)
    );
  mcp.command("import").description(
    "Copy the servers of a .mcp.json or Claude Code/Desktop config into your config.toml",
  )
    .argument("<file>", "a JSON file with a top-level mcpServers object")
    .option("--only <name>", "import only this server (repeatable)", collect, [])
    .option("--dir <path>", "workspace directory")
    .action(async (file: string, opts: { only?: string[]; dir?: string }) =>
      await (await load()).mcpImportCmd(file, opts)
    );
  mcp.command("remove").description("Remove a server from your config.toml").argument("<name>")
    .option("--dir <path>", "workspace directory")
    .action(async (name: string, opts: { dir?: string }) => await (await load()).mcpRemoveCmd(name, opts));
  mcp.command("trust").description("Approve a project server's exact definition for this workspace")
    .argument("<name>").option("--revoke", "forget the approval")
    .option("-y, --yes", "approve without asking (needed when stdin is not a terminal)")
    .option("--dir <path>", "workspace directory")
    .action(async (name: string, opts: { revoke?: boolean; yes?: boolean; dir?: string }) =>
      await (await load()).mcpTrustCmd(name, opts, io)
    );
  mcp.command("login").description("Log in to a remote (HTTP/SSE) server with OAuth in your browser")
    .argument("<name>").option(
      "--trust-project-mcp",
      "allow it even if it is a project server you have not approved",
    )
    .option("--dir <path>", "workspace directory")
    .action(async (name: string, opts: { trustProjectMcp?: boolean; dir?: string }) =>
      await (await import("./mcp_auth_cmd.ts")).mcpLoginCmd(name, opts)
    );
  mcp.command("logout").description("Revoke and forget a remote server's stored OAuth tokens")
    .argument("<name>").option("--dir <path>", "workspace directory")
    .action(async (name: string, opts: { dir?: string }) =>
      await (await import("./mcp_auth_cmd.ts")).mcpLogoutCmd(name, opts)
    );
  mcp.command("tools").description("Start a server, list its tools and stop it")
    .argument("<name>").option("--json", "machine-readable output")
    .option("--trust-project-mcp", "start it even if it is a project server you have not approved")
    .option("--dir <path>", "workspace directory")
    .action(async (name: string, opts: { json?: boolean; trustProjectMcp?: boolean; dir?: string }) =>
      await (await load()).mcpToolsCmd(name, opts)
    );
  return mcp;
}
