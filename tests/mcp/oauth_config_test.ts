import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { ConfigError } from "../../src/config/errors.ts";
import { resolveMcpServers } from "../../src/mcp/config.ts";
import { fixture } from "../config/_fixture.ts";

type Fx = Awaited<ReturnType<typeof fixture>>;

async function servers(fx: Fx, env: Record<string, string> = {}) {
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  return (await resolveMcpServers(config, { workspace: fx.workspace, paths: fx.paths, env })).servers;
}

Deno.test("resolveMcpServers() reads client_id, client_secret (${VAR} expanded), callback_port and scopes", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[[plugins]]\nname = "gh"\ntype = "http"\nurl = "https://mcp.example.com/mcp"\nclient_id = "abc"\n` +
      `client_secret = "\${GH_SECRET}"\ncallback_port = 8765\nscopes = ["repo", "read:org"]\n`,
  );
  const [entry] = await servers(fx, { GH_SECRET: "s3cret" });
  assert.deepEqual(entry!.decl.oauth, {
    clientId: "abc",
    clientSecret: "${GH_SECRET}",
    callbackPort: 8765,
    scopes: ["repo", "read:org"],
  });
  assert.deepEqual(entry!.spec!.oauth, {
    clientId: "abc",
    clientSecret: "s3cret",
    callbackPort: 8765,
    scopes: ["repo", "read:org"],
  });
});

Deno.test("resolveMcpServers() reads Claude Code's .mcp.json oauth block; a bad port names file:line:col", async () => {
  await using fx = await fixture();
  const file = join(fx.workspace, ".mcp.json");
  await fx.write(
    file,
    JSON.stringify({
      mcpServers: {
        linear: {
          type: "http",
          url: "https://mcp.linear.app/mcp",
          oauth: {
            clientId: "lin",
            callbackPort: 9000,
            scopes: "read write",
            authServerMetadataUrl: "https://x",
          },
        },
      },
    }),
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const list = await resolveMcpServers(config, { workspace: fx.workspace, paths: fx.paths, env: {} });
  assert.deepEqual(list.servers[0]!.decl.oauth, {
    clientId: "lin",
    callbackPort: 9000,
    scopes: ["read", "write"],
  });
  assert.match(list.warnings[0]!.message, /unknown key "linear\.oauth\.authServerMetadataUrl"/);
  await fx.write(
    file,
    `{"mcpServers": {"linear": {"url": "https://mcp.linear.app/mcp",\n  "oauth": {"callbackPort": "9000"}}}}`,
  );
  await assert.rejects(servers(fx), (error: ConfigError) => {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /"linear\.oauth\.callbackPort": expected a port number, got/);
    assert.equal(error.line, 2);
    return true;
  });
});
