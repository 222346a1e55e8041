import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { ConfigError } from "../../src/config/errors.ts";
import { resolveMcpServers } from "../../src/mcp/config.ts";
import { fixture } from "../config/_fixture.ts";

type Fx = Awaited<ReturnType<typeof fixture>>;

async function servers(fx: Fx, env: Record<string, string> = {}) {
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  return await resolveMcpServers(config, { workspace: fx.workspace, paths: fx.paths, env });
}

async function configError(run: () => Promise<unknown>): Promise<ConfigError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail("expected a ConfigError");
}

Deno.test("resolveMcpServers(): reasonix.toml beats .mcp.json, which beats the global config, by name", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[[plugins]]\nname = "shared"\ncommand = "global-cmd"\n\n[[plugins]]\nname = "mine"\ncommand = "mine"\n`,
  );
  await fx.write(
    join(fx.workspace, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        shared: { command: "json-cmd" },
        both: { command: "json-both" },
        remote: { type: "sse", url: "https://mcp.example.com/sse" },
      },
    }),
  );
  await fx.write(join(fx.workspace, "reasonix.toml"), `[[plugins]]\nname = "both"\ncommand = "toml-both"\n`);
  const { servers: list } = await servers(fx);
  const byName = Object.fromEntries(list.map((entry) => [entry.decl.name, entry]));
  assert.deepEqual(Object.keys(byName).sort(), ["both", "mine", "remote", "shared"]);
  assert.equal(byName.shared!.spec!.command, "json-cmd");
  assert.equal(byName.shared!.decl.source, "mcp_json");
  assert.equal(byName.both!.spec!.command, "toml-both");
  assert.equal(byName.both!.decl.source, "project");
  assert.equal(byName.mine!.trust, "user");
  assert.equal(byName.remote!.spec!.type, "sse");
  assert.equal(byName.remote!.trust, "untrusted");
});

Deno.test("resolveMcpServers(): ${VAR} and ${VAR:-default} expand in command, args, env, url and headers", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[[plugins]]
name = "local"
command = "\${TOOLS}/server"
args = ["--root", "\${ROOT:-/srv}", "\${EMPTY:-fallback}"]
env = { API_TOKEN = "\${TOKEN}" }

[[plugins]]
name = "remote"
type = "http"
url = "https://\${HOST:-mcp.example.com}/mcp"
headers = { Authorization = "Bearer \${TOKEN}" }
`,
  );
  const env = { TOOLS: "/opt/tools", TOKEN: "t0k3n", EMPTY: "" };
  const [local, remote] = (await servers(fx, env)).servers;
  assert.equal(local!.spec!.command, "/opt/tools/server");
  assert.deepEqual(local!.spec!.args, ["--root", "/srv", "fallback"]);
  assert.deepEqual(local!.spec!.env, { API_TOKEN: "t0k3n" });
  assert.equal(remote!.spec!.url, "https://mcp.example.com/mcp");
  assert.deepEqual(remote!.spec!.headers, { Authorization: "Bearer t0k3n" });
  assert.equal(local!.decl.command, "${TOOLS}/server", "the declaration keeps what the file says");
});

Deno.test("resolveMcpServers(): a project .env feeds only project servers, after the process environment", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[[plugins]]\nname = "mine"\ncommand = "\${DB_URL:-none}"\n`);
  await fx.write(join(fx.workspace, ".env"), "DB_URL=from-dotenv\nREGION=eu\n");
  await fx.write(
    join(fx.workspace, ".mcp.json"),
    JSON.stringify({ mcpServers: { theirs: { command: "x", args: ["${DB_URL}", "${REGION}"] } } }),
  );
  const [mine, theirs] = (await servers(fx, { REGION: "us" })).servers;
  assert.equal(mine!.spec!.command, "none", "the repository's .env cannot steer the user's own server");
  assert.deepEqual(theirs!.spec!.args, ["from-dotenv", "us"]);
});

Deno.test("resolveMcpServers(): an unset variable without a default leaves out that server, naming file:line:col", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[[plugins]]\nname = "ok"\ncommand = "ok"\n\n[[plugins]]\nname = "broken"\ncommand = "srv"\nargs = ["\${MISSING}"]\n`,
  );
  const [ok, broken] = (await servers(fx)).servers;
  assert.equal(ok!.problem, undefined);
  assert.equal(broken!.spec, undefined);
  assert.equal(
    broken!.problem,
    `${fx.paths.globalConfigFile}:8:1: MCP server "broken": "args[0]" uses \${MISSING}, which is not set and has no default`,
  );
});

Deno.test("resolveMcpServers(): timeouts come from [tools], each server and each tool", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[tools]\nmcp_startup_timeout_seconds = 10\nmcp_call_timeout_seconds = 60

[[plugins]]\nname = "a"\ncommand = "a"\nauto_start = false

[[plugins]]\nname = "b"\ncommand = "b"\nstartup_timeout_seconds = 5\ncall_timeout_seconds = 20
tool_timeout_seconds = { slow = 600 }
`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.unused, [], "Go's MCP keys are used now");
  const [a, b] = (await resolveMcpServers(config, { workspace: fx.workspace, paths: fx.paths, env: {} }))
    .servers;
  assert.deepEqual([a!.startupTimeoutMs, a!.callTimeoutMs, a!.decl.autoStart], [10_000, 60_000, false]);
  assert.deepEqual([b!.startupTimeoutMs, b!.callTimeoutMs, b!.decl.autoStart], [5_000, 20_000, true]);
  assert.deepEqual(b!.toolTimeoutMs, { slow: 600_000 });
});

Deno.test("resolveMcpServers(): the defaults are 30 s to start and 300 s per call", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[[plugins]]\nname = "a"\ncommand = "a"\n`);
  const [a] = (await servers(fx)).servers;
  assert.deepEqual([a!.startupTimeoutMs, a!.callTimeoutMs], [30_000, 300_000]);
});

Deno.test("loadConfig(): a wrong [[plugins]] entry is an error at its file:line:col", async () => {
  await using fx = await fixture();
  const load = () => loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const file = fx.paths.globalConfigFile;
  await fx.write(file, `[[plugins]]\nname = "a"\ncommand = "a"\nargs = "--flag"\n`);
  assert.equal(
    (await configError(load)).message,
    `${file}:4:1: Cannot read "plugins[0].args": expected an array of strings, got "--flag"`,
  );
  await fx.write(file, `[[plugins]]\nname = "a"\ntype = "http"\n`);
  assert.equal(
    (await configError(load)).message,
    `${file}:1:3: Cannot read "plugins[0]": an http server needs "url"`,
  );
  await fx.write(file, `[[plugins]]\nname = "a__b"\ncommand = "a"\n`);
  assert.match(
    (await configError(load)).message,
    /:2:1: Cannot read "plugins\[0\]": the MCP server name "a__b"/,
  );
  await fx.write(file, `[[plugins]]\nname = "a"\ncommand = "a"\n[[plugins]]\nname = "a"\ncommand = "b"\n`);
  assert.equal(
    (await configError(load)).message,
    `${file}:5:1: Cannot read "plugins[1].name": MCP server "a" is already declared as plugins[0]`,
  );
  await fx.write(file, `[[plugins]]\nname = "a"\ncommand = "a"\ntool_timeout_seconds = { x = 0 }\n`);
  assert.match(
    (await configError(load)).message,
    /:4:26: Cannot read "plugins\[0\]\.tool_timeout_seconds\.x"/,
  );
});

Deno.test("resolveMcpServers(): .mcp.json problems name file:line:col; unknown keys are warnings", async () => {
  await using fx = await fixture();
  const file = join(fx.workspace, ".mcp.json");
  await fx.write(file, `{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n`);
  assert.equal(
    (await configError(() => servers(fx))).message,
    `${file}:3:28: Cannot parse JSON: expected a quoted key`,
  );
  await fx.write(
    file,
    `{\n  "mcpServers": {\n    "a": {\n      "command": "x",\n      "args": [1]\n    }\n  }\n}\n`,
  );
  assert.equal(
    (await configError(() => servers(fx))).message,
    `${file}:5:7: Cannot read "mcpServers.a.args": expected an array of strings, got an array`,
  );
  await fx.write(file, `{"mcpServers": {"a": {"url": "https://x.example.com"}}}`);
  const http = await servers(fx);
  assert.equal(http.servers[0]!.decl.type, "http", "a url alone means Streamable HTTP");
  await fx.write(file, `{\n  "mcpServers": {\n    "a": { "command": "x", "cwd": "/" }\n  }\n}\n`);
  const read = await servers(fx);
  assert.deepEqual(read.warnings, [{ file, line: 3, column: 28, message: `unknown key "mcpServers.a.cwd"` }]);
});

Deno.test("resolveMcpServers(): a .mcp.json symlinked out of the workspace is refused, not read", async () => {
  await using fx = await fixture();
  const outside = await fx.write(join(fx.root, "elsewhere.json"), `{"mcpServers": {"a": {"command": "x"}}}`);
  await Deno.symlink(outside, join(fx.workspace, ".mcp.json"));
  const read = await servers(fx);
  assert.deepEqual(read.servers, []);
  assert.equal(read.warnings.length, 1);
  assert.match(read.warnings[0]!.message, /outside/);
});
