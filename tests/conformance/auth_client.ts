/**
 * The client the MCP conformance suite (`@modelcontextprotocol/conformance`, client mode) runs for its
 * auth scenarios: `deno run -A tests/conformance/auth_client.ts <server-url>`. It logs in with Reasonix's
 * own OAuth code (src/mcp/oauth_login.ts: our OAuthClientProvider, the loopback callback, the store),
 * with the suite's authorisation server redirecting at once as a browser would, then lists the tools and
 * calls each one that takes no required arguments (a step-up scenario asks for more scope there).
 * Pre-registered credentials come from MCP_CONFORMANCE_CONTEXT. Run by tests/conformance/run_auth.ts.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { loginMcpServer } from "../../src/mcp/oauth_login.ts";
import type { McpServerSpec } from "../../src/mcp/expand.ts";

const url = Deno.args.at(-1)!;
const context = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}") as Record<string, unknown>;
// The suite's metadata document URL, as its own reference client uses it (servers that do not support
// Client ID Metadata Documents never see it: the client registers instead).
const oauth: McpServerSpec["oauth"] = {
  clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
};
if (typeof context.client_id === "string") oauth.clientId = context.client_id;
if (typeof context.client_secret === "string") oauth.clientSecret = context.client_secret;
const spec: McpServerSpec = {
  name: "conformance",
  type: "http",
  command: "",
  args: [],
  env: {},
  url,
  headers: {},
  oauth,
};
const dir = await Deno.makeTempDir({ prefix: "reasonix-conformance-" });

async function probe(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  for (const tool of tools) {
    if ((tool.inputSchema.required ?? []).length > 0) continue;
    await client.callTool({ name: tool.name, arguments: {} });
  }
}

try {
  await loginMcpServer(spec, {
    dir,
    timeoutMs: 20_000,
    connectTimeoutMs: 20_000,
    probe,
    async open(authorization) {
      const response = await fetch(authorization);
      await response.body?.cancel();
    },
  });
  console.log("logged in");
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  Deno.exitCode = 1;
} finally {
  await Deno.remove(dir, { recursive: true });
}
