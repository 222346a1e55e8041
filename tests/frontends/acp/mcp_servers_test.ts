import assert from "node:assert/strict";
import { editorServers, serverName } from "../../../src/frontends/acp/mcp_servers.ts";
import type { ReasonixError } from "../../../src/lib/errors.ts";

Deno.test("editorServers(): stdio, http and sse servers become the session's editor declarations", () => {
  const [stdio, http, sse] = editorServers([
    { name: "files", command: "/usr/bin/srv", args: ["--root", "."], env: [{ name: "TOKEN", value: "t" }] },
    {
      type: "http",
      name: "web",
      url: "https://h.example/mcp",
      headers: [{ name: "Authorization", value: "x" }],
    },
    { type: "sse", name: "old", url: "https://h.example/sse", headers: [] },
  ]);
  assert.deepEqual(
    [stdio!.type, stdio!.command, stdio!.args, stdio!.env, stdio!.source],
    ["stdio", "/usr/bin/srv", ["--root", "."], { TOKEN: "t" }, "editor"],
  );
  assert.deepEqual([http!.type, http!.url, http!.headers], ["http", "https://h.example/mcp", {
    Authorization: "x",
  }]);
  assert.equal(sse!.type, "sse");
  assert.ok(stdio!.autoStart);
  assert.deepEqual(editorServers(undefined), []);
});

Deno.test("serverName(): names a tool name cannot carry are made valid; a clash is refused", () => {
  assert.equal(serverName("context7"), "context7");
  assert.equal(serverName("My Server"), "My-Server");
  assert.equal(serverName("a__b"), "a_b");
  assert.equal(serverName(" -x.y "), "x-y");
  assert.equal(serverName("   "), "editor");
  assert.throws(
    () =>
      editorServers([
        { name: "My Server", command: "/a", args: [], env: [] },
        { name: "My-Server", command: "/b", args: [], env: [] },
      ]),
    (error: ReasonixError) =>
      error.code === "usage.mcp_server" && /two are named "My-Server"/.test(error.message),
  );
});
