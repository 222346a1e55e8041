import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { McpConnection } from "../../src/mcp/client.ts";
import { McpManager } from "../../src/mcp/manager.ts";
import { loginMcpServer, logoutMcpServer } from "../../src/mcp/oauth_login.ts";
import { listenForCallback } from "../../src/mcp/oauth_callback.ts";
import { OAuthStore } from "../../src/mcp/oauth_store.ts";
import type { ReasonixError } from "../../src/lib/errors.ts";
import { connectOptions } from "./_servers.ts";
import {
  followInBrowser,
  httpSpec,
  rotatingServer,
  sdkExampleServer,
  serverStats,
} from "./_oauth_servers.ts";

const ROOT = resolve(import.meta.dirname!, "../..");
const login = { timeoutMs: 30_000, connectTimeoutMs: 30_000, open: followInBrowser };

async function session(spec: ReturnType<typeof httpSpec>, dir: string): Promise<McpConnection> {
  return await McpConnection.connect(spec, connectOptions(dir, { oauthDir: dir }));
}

async function storedFile(dir: string, name: string, url: string): Promise<string> {
  return (await OAuthStore.open(dir, name, url)).file;
}

Deno.test("loginMcpServer() logs in to the SDK's OAuth example headlessly; a session uses the tokens; logout forgets them", async () => {
  const server = await sdkExampleServer();
  const dir = await Deno.makeTempDir();
  try {
    const spec = httpSpec("demo", server.url);
    await assert.rejects(session(spec, dir), (error: ReasonixError) => {
      assert.equal(error.code, "mcp.needs_auth");
      assert.match(error.message, /run `reasonix mcp login demo`/);
      return true;
    });
    await loginMcpServer(spec, { dir, ...login });
    const file = await storedFile(dir, "demo", server.url);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    const stored = JSON.parse(await Deno.readTextFile(file));
    assert.equal(stored.serverUrl, server.url);
    assert.equal(stored.registered, true);
    assert.equal(typeof stored.tokens.access_token, "string");
    const connection = await session(spec, dir);
    try {
      assert.ok((await connection.listTools()).length > 0);
    } finally {
      await connection.close();
    }
    // Another URL under the same name does not get these tokens.
    const other = await OAuthStore.open(dir, "demo", server.url.replace("/mcp", "/other"));
    assert.equal((await other.read()).tokens, undefined);
    assert.deepEqual(await logoutMcpServer(spec, dir), { removed: true, revoked: false });
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
    await assert.rejects(session(spec, dir), (error: ReasonixError) => error.code === "mcp.needs_auth");
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("McpConnection refreshes an expired token once, stores the rotated refresh token, and logout revokes", async () => {
  const server = await rotatingServer(4);
  const dir = await Deno.makeTempDir();
  try {
    const spec = httpSpec("rot", server.url);
    await loginMcpServer(spec, { dir, ...login });
    const file = await storedFile(dir, "rot", server.url);
    const first = JSON.parse(await Deno.readTextFile(file)).tokens;
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const connection = await session(spec, dir);
    await connection.close();
    const second = JSON.parse(await Deno.readTextFile(file)).tokens;
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.notEqual(second.access_token, first.access_token);
    assert.equal((await serverStats(server)).refreshes, 1);
    // The server stops accepting the access token before it expires: a 401 is answered by a refresh.
    await (await fetch(`${server.base}/expire`, { method: "POST" })).body?.cancel();
    const again = await session(spec, dir);
    try {
      assert.ok((await again.listTools()).some((tool) => tool.name === "whoami"));
    } finally {
      await again.close();
    }
    assert.equal((await serverStats(server)).refreshes, 2);
    assert.deepEqual(await logoutMcpServer(spec, dir), { removed: true, revoked: true });
    assert.equal((await serverStats(server)).revoked, 2);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("two processes refreshing at once send one refresh request and both get the new token", async () => {
  const server = await rotatingServer(4);
  const dir = await Deno.makeTempDir();
  try {
    const spec = httpSpec("race", server.url);
    await loginMcpServer(spec, { dir, ...login });
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const probe = (): Promise<Deno.CommandOutput> =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--quiet",
          "--config",
          join(ROOT, "deno.json"),
          join(ROOT, "tests/fixtures/mcp/oauth_refresh_probe.ts"),
          dir,
          "race",
          server.url,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
    const outputs = await Promise.all([probe(), probe()]);
    const tokens = outputs.map((output) => {
      assert.ok(output.success, new TextDecoder().decode(output.stderr));
      return new TextDecoder().decode(output.stdout).trim();
    });
    assert.equal(tokens[0], tokens[1]);
    assert.equal((await serverStats(server)).refreshes, 1);
    const stored = JSON.parse(await Deno.readTextFile(await storedFile(dir, "race", server.url)));
    assert.equal(stored.tokens.access_token, tokens[0]);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("listenForCallback() names the port when it is taken and ignores a callback with another state", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (taken.addr as Deno.NetAddr).port;
  try {
    assert.throws(() => listenForCallback(port), (error: ReasonixError) => {
      assert.equal(error.code, "mcp.callback_port_taken");
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      return true;
    });
  } finally {
    taken.close();
  }
  const callback = listenForCallback(0);
  try {
    const base = `http://127.0.0.1:${callback.port}/callback`;
    await (await fetch(`${base}?code=forged&state=other`)).body?.cancel();
    await (await fetch(`${base}?code=real&state=mine`)).body?.cancel();
    assert.equal(await callback.next("mine", 5_000), "real");
  } finally {
    await callback.close();
  }
});

Deno.test("McpManager reports needs_auth for a server without tokens, and the next use after a login connects", async () => {
  const server = await rotatingServer();
  const dir = await Deno.makeTempDir();
  const spec = httpSpec("gated", server.url);
  const entry = {
    decl: {
      ...spec,
      toolTimeoutSeconds: {},
      autoStart: true,
      source: "global" as const,
      file: join(dir, "config.toml"),
      at: { entry: { line: 1, column: 1 } },
    },
    spec,
    trust: "user" as const,
    startupTimeoutMs: 30_000,
    callTimeoutMs: 30_000,
    toolTimeoutMs: {},
  };
  const manager = new McpManager([entry], { workspace: dir, baseEnv: {}, oauthDir: dir });
  try {
    await assert.rejects(manager.connection("gated"), /run `reasonix mcp login gated`/);
    assert.deepEqual(manager.status()[0]!.state.kind, "needs_auth");
    assert.equal((await serverStats(server)).authorizations, 0, "a session never starts an authorisation");
    await loginMcpServer(spec, { dir, ...login });
    const result = await manager.callTool("gated", "whoami", {});
    assert.match(JSON.stringify(result.content), /client /);
    assert.equal(manager.status()[0]!.state.kind, "connected");
  } finally {
    await manager.closeAll();
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loginMcpServer() refused in the browser keeps the tokens of the earlier login", async () => {
  const server = await rotatingServer();
  const dir = await Deno.makeTempDir();
  try {
    const spec = httpSpec("keep", server.url);
    await loginMcpServer(spec, { dir, ...login });
    const file = await storedFile(dir, "keep", server.url);
    const before = JSON.parse(await Deno.readTextFile(file)).tokens;
    const refuse = async (url: URL) => {
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("state", url.searchParams.get("state")!);
      await (await fetch(back)).body?.cancel();
    };
    await assert.rejects(
      loginMcpServer(spec, { dir, ...login, open: refuse }),
      (error: ReasonixError) => error.code === "mcp.login_refused" && /access_denied/.test(error.message),
    );
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)).tokens, before);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
