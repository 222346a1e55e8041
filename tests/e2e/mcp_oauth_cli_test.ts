/**
 * `reasonix mcp login|logout` through the real CLI against a real OAuth server (tests/fixtures/mcp/
 * oauth_server.ts, on the SDK's server auth pieces): `$BROWSER` is a script that follows the redirects
 * with curl, as a person clicking "Allow" would, so the whole login runs headless. Before the login a
 * headless start fails naming the command; the tokens land in the home's mcp-auth/ with mode 0600; a
 * taken callback port is named; logout revokes and forgets.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { rotatingServer } from "../mcp/_oauth_servers.ts";

Deno.test("reasonix mcp login/logout run the OAuth login headlessly with $BROWSER and keep the tokens 0600", async () => {
  const server = await rotatingServer();
  const home = await Deno.makeTempDir({ prefix: "reasonix-home-" });
  const ws = await makeWorkspace({});
  const browser = join(home, "browser.sh");
  await Deno.writeTextFile(browser, `#!/bin/sh\nexec curl -s -L -o /dev/null "$1"\n`);
  await Deno.chmod(browser, 0o755);
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (taken.addr as Deno.NetAddr).port;
  const env = { BROWSER: browser };
  try {
    const added = await runCli(
      ["mcp", "add", "rot", "--http", server.url, "--scope", "mcp:tools", "--callback-port", String(port)],
      { home, cwd: ws },
    );
    assert.equal(added.code, 0, added.stderr);
    const config = await Deno.readTextFile(join(home, "config.toml"));
    assert.match(config, new RegExp(`callback_port = ${port}\\nscopes = \\["mcp:tools"\\]`));

    const before = await runCli(["mcp", "tools", "rot"], { home, cwd: ws });
    assert.equal(before.code, 1);
    assert.match(before.stderr, /needs authorisation.*run `reasonix mcp login rot`/);

    const blocked = await runCli(["mcp", "login", "rot"], { home, cwd: ws, env });
    assert.equal(blocked.code, 1);
    assert.match(blocked.stderr, new RegExp(`127\\.0\\.0\\.1:${port}: the port is already in use`));
    taken.close();

    const login = await runCli(["mcp", "login", "rot"], { home, cwd: ws, env });
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stderr, new RegExp(`${server.base}/authorize\\?`));
    assert.match(login.stdout, /Logged in to MCP server "rot"/);
    const files = [...Deno.readDirSync(join(home, "mcp-auth"))].map((entry) => entry.name).filter((name) =>
      name.endsWith(".json")
    );
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^rot-[0-9a-f]{16}\.json$/);
    assert.equal((await Deno.stat(join(home, "mcp-auth", files[0]!))).mode! & 0o777, 0o600);

    const get = await runCli(["mcp", "get", "rot"], { home, cwd: ws });
    assert.match(get.stdout, new RegExp(`callback_port: ${port}\\n  scopes: mcp:tools\\n`));
    assert.match(get.stdout, /oauth: logged in/);
    const tools = await runCli(["mcp", "tools", "rot"], { home, cwd: ws });
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /mcp__rot__whoami/);

    const logout = await runCli(["mcp", "logout", "rot"], { home, cwd: ws });
    assert.equal(logout.code, 0, logout.stderr);
    assert.match(logout.stdout, /revoked its tokens and forgot them/);
    const gone = await runCli(["mcp", "get", "rot", "--json"], { home, cwd: ws });
    assert.equal(JSON.parse(gone.stdout).logged_in, false);
    const after = await runCli(["mcp", "tools", "rot"], { home, cwd: ws });
    assert.match(after.stderr, /run `reasonix mcp login rot`/);
  } finally {
    try {
      taken.close();
    } catch { /* closed above */ }
    await server.stop();
    await removeAll(home, ws);
  }
});
