import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { resolveMcpServers } from "../../src/mcp/config.ts";
import { startRefusal } from "../../src/mcp/gate.ts";
import { revokeMcpServer, trustMcpServer } from "../../src/mcp/trust.ts";
import { readTrustFile } from "../../src/config/trust.ts";
import { fixture } from "../config/_fixture.ts";

type Fx = Awaited<ReturnType<typeof fixture>>;

async function server(fx: Fx, name: string) {
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const list = await resolveMcpServers(config, { workspace: fx.workspace, paths: fx.paths, env: {} });
  return list.servers.find((entry) => entry.decl.name === name)!;
}

function mcpJson(definition: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: { tools: definition } });
}

Deno.test("mcpTrust(): a project server is trusted for its exact definition; a changed one asks again", async () => {
  await using fx = await fixture();
  const file = join(fx.workspace, ".mcp.json");
  const base = { command: "npx", args: ["-y", "tools-server"], env: { LEVEL: "1" }, url: "" };
  await fx.write(file, mcpJson(base));
  assert.equal((await server(fx, "tools")).trust, "untrusted");
  await trustMcpServer(fx.paths, fx.workspace, (await server(fx, "tools")).decl);
  assert.equal((await server(fx, "tools")).trust, "trusted");
  const stored = await readTrustFile(fx.paths.trustFile);
  assert.deepEqual(Object.keys(stored.mcpServers as object), [await Deno.realPath(fx.workspace)]);
  if (Deno.build.os !== "windows") assert.equal((await Deno.stat(fx.paths.trustFile)).mode! & 0o777, 0o600);

  const changes: Record<string, unknown>[] = [
    { ...base, command: "node" },
    { ...base, args: ["-y", "tools-server", "--evil"] },
    { ...base, env: { LEVEL: "1", NODE_OPTIONS: "--require ./x.js" } },
    { ...base, env: { LEVEL: "2" } },
    { ...base, type: "http", url: "https://elsewhere.example.com" },
  ];
  for (const changed of changes) {
    await fx.write(file, mcpJson(changed));
    assert.equal((await server(fx, "tools")).trust, "changed", JSON.stringify(changed));
  }
  await fx.write(file, mcpJson(base));
  assert.equal((await server(fx, "tools")).trust, "trusted", "the approved definition again");
});

Deno.test("mcpTrust(): header values may change (a rotated token), header names may not", async () => {
  await using fx = await fixture();
  const file = join(fx.workspace, ".mcp.json");
  const remote = (headers: Record<string, string>) =>
    mcpJson({ type: "http", url: "https://mcp.example.com/mcp", headers });
  await fx.write(file, remote({ Authorization: "Bearer one" }));
  await trustMcpServer(fx.paths, fx.workspace, (await server(fx, "tools")).decl);
  await fx.write(file, remote({ Authorization: "Bearer two" }));
  assert.equal((await server(fx, "tools")).trust, "trusted");
  await fx.write(file, remote({ Authorization: "Bearer two", "X-Forward-To": "x" }));
  assert.equal((await server(fx, "tools")).trust, "changed");
});

Deno.test("mcpTrust(): servers of the user's own config need no approval; approvals are per workspace", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[[plugins]]\nname = "mine"\ncommand = "mine"\n`);
  await fx.write(join(fx.workspace, "reasonix.toml"), `[[plugins]]\nname = "tools"\ncommand = "x"\n`);
  assert.equal((await server(fx, "mine")).trust, "user");
  assert.equal(startRefusal(await server(fx, "mine"), { workspace: fx.workspace }), undefined);
  await trustMcpServer(fx.paths, fx.workspace, (await server(fx, "tools")).decl);
  const other = join(fx.root, "other");
  await Deno.mkdir(other);
  await fx.write(join(other, "reasonix.toml"), `[[plugins]]\nname = "tools"\ncommand = "x"\n`);
  const config = await loadConfig({ workspace: other, paths: fx.paths });
  const elsewhere = await resolveMcpServers(config, { workspace: other, paths: fx.paths, env: {} });
  assert.equal(elsewhere.servers.find((entry) => entry.decl.name === "tools")!.trust, "untrusted");
  assert.equal(await revokeMcpServer(fx.paths, fx.workspace, "tools"), true);
  assert.equal((await server(fx, "tools")).trust, "untrusted");
  assert.equal(await revokeMcpServer(fx.paths, fx.workspace, "tools"), false);
});

Deno.test("startRefusal(): an untrusted project server is refused with the command that approves it", async () => {
  await using fx = await fixture();
  await fx.write(join(fx.workspace, ".mcp.json"), mcpJson({ command: "x" }));
  const entry = await server(fx, "tools");
  assert.equal(
    startRefusal(entry, { workspace: fx.workspace }),
    `MCP server "tools" from .mcp.json is not trusted in this workspace: review and approve it with ` +
      "`reasonix mcp trust tools` (or allow every project server for one run with --trust-project-mcp)",
  );
  assert.equal(startRefusal(entry, { workspace: fx.workspace, trustProjectServers: true }), undefined);
  await trustMcpServer(fx.paths, fx.workspace, entry.decl);
  await fx.write(join(fx.workspace, ".mcp.json"), mcpJson({ command: "y" }));
  assert.match(
    startRefusal(await server(fx, "tools"), { workspace: fx.workspace })!,
    /changed since you trusted it/,
  );
});
