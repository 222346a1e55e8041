/**
 * Servers an editor names for a session: they win over a configured server of the same name, are taken
 * as written, need no trust, and are made startable under narrowed Deno permissions (the fence's).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/load.ts";
import type { McpServerDecl } from "../../src/config/types.ts";
import { resolveMcpServers } from "../../src/mcp/config.ts";
import { editorDecl, editorSpec, EXEC_SCRIPT } from "../../src/mcp/editor_servers.ts";
import { fixture } from "../config/_fixture.ts";
import { reloadMcpServers, startMcpServers } from "../../src/control/mcp_boot.ts";

function decl(fields: Partial<McpServerDecl>): McpServerDecl {
  return editorDecl({ name: "ed", type: "stdio", ...fields });
}

Deno.test("resolveMcpServers(): an editor's server replaces a configured one of its name, as written", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[[plugins]]\nname = "shared"\ncommand = "configured"\n`);
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const extra = [decl({ name: "shared", command: "/bin/editor-cmd", env: { TOKEN: "${NOT_EXPANDED}" } })];
  const { servers } = await resolveMcpServers(config, {
    workspace: fx.workspace,
    paths: fx.paths,
    env: {},
    extra,
  });
  assert.equal(servers.length, 1);
  assert.equal(servers[0]!.decl.source, "editor");
  assert.equal(servers[0]!.trust, "user");
  assert.equal(servers[0]!.problem, undefined);
  assert.equal(servers[0]!.spec!.command, "/bin/editor-cmd");
  assert.deepEqual(servers[0]!.spec!.env, { TOKEN: "${NOT_EXPANDED}" });
});

Deno.test({
  name: "editorSpec(): under a fence a stdio command goes through sh, and an unlisted host is refused",
  permissions: { run: ["sh"], net: ["127.0.0.1:4000"], read: true },
  fn() {
    const stdio = editorSpec(decl({ command: "/opt/editor/server", args: ["--x", "a b"] }));
    assert.ok("spec" in stdio);
    assert.equal(stdio.spec.command, "sh");
    assert.deepEqual(stdio.spec.args, ["-c", EXEC_SCRIPT, "/opt/editor/server", "--x", "a b"]);
    const listed = editorSpec(decl({ type: "http", url: "http://127.0.0.1:4000/mcp" }));
    assert.ok("spec" in listed);
    const other = editorSpec(decl({ type: "sse", url: "http://127.0.0.1:4001/sse" }));
    assert.ok("problem" in other);
    assert.match(other.problem, /cannot reach 127\.0\.0\.1:4001: the Deno fence/);
    assert.match(other.problem, /REASONIX_NO_FENCE=1/);
    assert.ok("problem" in editorSpec(decl({ type: "http", url: "file:///etc/passwd" })));
  },
});

Deno.test({
  name: "editorSpec(): without sh in the fence a stdio command it does not list is refused",
  permissions: { run: false, read: true },
  fn() {
    const refused = editorSpec(decl({ command: "/opt/editor/server" }));
    assert.ok("problem" in refused);
    assert.match(refused.problem, /cannot start "\/opt\/editor\/server": the Deno fence/);
  },
});

Deno.test("editorSpec(): with every permission the command runs as given", () => {
  const spec = editorSpec(decl({ command: "/opt/editor/server", args: ["a"] }));
  assert.ok("spec" in spec);
  assert.deepEqual([spec.spec.command, ...spec.spec.args], ["/opt/editor/server", "a"]);
});

Deno.test("reloadMcpServers(): an editor's servers stay in the session when the files are read again", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[[plugins]]\nname = "mine"\ncommand = "mine"\nauto_start = false\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const extra = [decl({ command: "/opt/editor/server", autoStart: false })];
  const { manager } = await startMcpServers(config, {
    workspace: fx.workspace,
    paths: fx.paths,
    env: {},
    extra,
  });
  try {
    assert.deepEqual(manager.status().map((s) => [s.name, s.state.kind]), [["mine", "idle"], ["ed", "idle"]]);
    await fx.write(fx.paths.globalConfigFile, "");
    await reloadMcpServers(manager);
    assert.deepEqual(manager.status().map((s) => s.name), ["ed"]);
    assert.equal(manager.entry("ed")!.decl.source, "editor");
  } finally {
    await manager.closeAll();
  }
});
