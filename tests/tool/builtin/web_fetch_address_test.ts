/**
 * web_fetch as an exfiltration route: loopback in every spelling, private and metadata addresses, DNS
 * answers that point inside, and redirects from an allowed host back to loopback. A real server on
 * 127.0.0.1 counts what reaches it; a refused call must leave it at zero.
 */
import assert from "node:assert/strict";
import { createWebFetchTool } from "../../../src/tool/builtin/web_fetch.ts";
import type { Resolver } from "../../../src/tool/builtin/_fetch_target.ts";
import type { ToolContext } from "../../../src/tool/tool.ts";
import { rejectsWithCode } from "../_tool_context.ts";
import { stateContext } from "./_state_context.ts";

interface Recorder extends AsyncDisposable {
  port: number;
  seen: string[];
}

/** Answers `/to?url=…` with a redirect there and anything else with a secret. */
function serve(): Recorder {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    seen.push(`${request.headers.get("host")}${url.pathname}`);
    const target = url.searchParams.get("url");
    if (target !== null) return new Response(null, { status: 302, headers: { location: target } });
    return new Response("secret", { headers: { "content-type": "text/plain" } });
  });
  return { port: server.addr.port, seen, [Symbol.asyncDispose]: () => server.shutdown() };
}

function ctx(allowPrivate: string[] = []): ToolContext {
  return { ...stateContext(), network: { allowed: true, allowPrivate } };
}

/** DNS the test controls; a name it does not know fails like NXDOMAIN. */
function resolver(names: Record<string, string[]>, asked: string[] = []): Resolver {
  return (host) => {
    asked.push(host);
    const found = names[host];
    return found ? Promise.resolve(found) : Promise.reject(new Error("no such host"));
  };
}

Deno.test("webFetchTool refuses loopback in every spelling and the server receives nothing", async () => {
  await using server = serve();
  const tool = createWebFetchTool({ resolve: resolver({}) });
  const hosts = [
    "127.0.0.1",
    "0x7f000001",
    "2130706433",
    "017700000001",
    "127.1",
    "0x7f.1",
    "127.0.0.1.",
    "localhost",
    "LOCALHOST.",
    "api.localhost",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:ffff:7f00:1]",
    "[::127.0.0.1]",
    "0.0.0.0",
    "0",
    "[::]",
  ];
  for (const host of hosts) {
    const error = await rejectsWithCode(
      tool.execute({ url: `http://${host}:${server.port}/` }, ctx()),
      "tool.private_address",
    );
    assert.match(error.message, /web_fetch refuses loopback, private, link-local and cloud metadata/, host);
  }
  assert.deepEqual(server.seen, []);
});

Deno.test("webFetchTool refuses private, shared, multicast and cloud metadata addresses by value", async () => {
  const tool = createWebFetchTool({ resolve: resolver({}) });
  const urls = [
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://100.100.100.200/latest/meta-data/",
    "http://10.0.0.5/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://169.254.1.1/",
    "http://[fe80::1]/",
    "http://[fd12::1]/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "https://[::ffff:a9fe:a9fe]/",
  ];
  for (const url of urls) {
    await rejectsWithCode(tool.execute({ url }, ctx()), "tool.private_address");
  }
  const metadata = await rejectsWithCode(
    tool.execute({ url: "http://169.254.169.254/latest/meta-data/" }, ctx()),
    "tool.private_address",
  );
  assert.equal(
    metadata.message,
    'Cannot fetch "http://169.254.169.254/latest/meta-data/": 169.254.169.254 is a cloud metadata address. ' +
      "web_fetch refuses loopback, private, link-local and cloud metadata addresses unless " +
      '[tools] web_fetch_allow_private in the user config lists "169.254.169.254"',
  );
});

Deno.test("webFetchTool checks every address a name resolves to, not the spelling", async () => {
  await using server = serve();
  const asked: string[] = [];
  const tool = createWebFetchTool({
    resolve: resolver({ "mixed.test": ["93.184.216.34", "127.0.0.1"], "inside.test": ["10.0.0.5"] }, asked),
  });
  const mixed = await rejectsWithCode(
    tool.execute({ url: `http://mixed.test:${server.port}/` }, ctx()),
    "tool.private_address",
  );
  assert.match(mixed.message, /"mixed\.test" resolves to 127\.0\.0\.1, a loopback address/);
  const inside = await rejectsWithCode(
    tool.execute({ url: "https://inside.test/" }, ctx()),
    "tool.private_address",
  );
  assert.match(inside.message, /"inside\.test" resolves to 10\.0\.0\.5, a private address/);
  const unknown = await rejectsWithCode(
    tool.execute({ url: "http://nowhere.test/" }, ctx()),
    "tool.fetch_failed",
  );
  assert.match(unknown.message, /cannot resolve "nowhere\.test": no such host/);
  assert.deepEqual(asked, ["mixed.test", "inside.test", "nowhere.test"]);
  assert.deepEqual(server.seen, []);
});

Deno.test("webFetchTool reaches a private host the user config lists, by host and port", async () => {
  await using server = serve();
  const tool = createWebFetchTool({ resolve: resolver({}) });
  const url = `http://127.0.0.1:${server.port}/page`;
  assert.match((await tool.execute({ url }, ctx([`127.0.0.1:${server.port}`]))).output, /secret/);
  assert.match((await tool.execute({ url }, ctx(["127.0.0.1"]))).output, /secret/);
  await rejectsWithCode(tool.execute({ url }, ctx(["127.0.0.1:1"])), "tool.private_address");
  await rejectsWithCode(
    tool.execute({ url: `http://localhost:${server.port}/` }, ctx(["127.0.0.1"])),
    "tool.private_address",
  );
  assert.deepEqual(server.seen, [`127.0.0.1:${server.port}/page`, `127.0.0.1:${server.port}/page`]);
});

Deno.test("webFetchTool connects to the address it checked and keeps the Host header", async () => {
  await using server = serve();
  let answers = 0;
  // A rebinding server would answer differently the second time; only the first answer is used.
  const tool = createWebFetchTool({
    resolve: (host) =>
      Promise.resolve(host === "named.test" && answers++ === 0 ? ["127.0.0.1"] : ["10.9.9.9"]),
  });
  const result = await tool.execute(
    { url: `http://named.test:${server.port}/page` },
    ctx([`named.test:${server.port}`]),
  );
  assert.match(result.output, /secret/);
  assert.equal(answers, 1);
  assert.deepEqual(server.seen, [`named.test:${server.port}/page`]);
});

Deno.test("webFetchTool re-checks every redirect: an allowed host cannot bounce it to loopback", async () => {
  await using server = serve();
  const tool = createWebFetchTool({
    resolve: resolver({ "allowed.test": ["127.0.0.1"], "rebound.test": ["127.0.0.1"] }),
  });
  const allowed = [`allowed.test:${server.port}`];
  const targets = [
    `http://127.0.0.1:${server.port}/secret`,
    `http://0x7f000001:${server.port}/secret`,
    `http://[::1]:${server.port}/secret`,
    `http://localhost:${server.port}/secret`,
    `http://rebound.test:${server.port}/secret`,
    "http://169.254.169.254/latest/meta-data/",
  ];
  for (const target of targets) {
    const start = `http://allowed.test:${server.port}/to?url=${encodeURIComponent(target)}`;
    const error = await rejectsWithCode(tool.execute({ url: start }, ctx(allowed)), "tool.private_address");
    assert.match(error.message, /^Cannot fetch "http:\/\/(127|\[|localhost|rebound|169)/, target);
  }
  const file = await rejectsWithCode(
    tool.execute(
      { url: `http://allowed.test:${server.port}/to?url=${encodeURIComponent("file:///proc/self/environ")}` },
      ctx(allowed),
    ),
    "tool.invalid_url",
  );
  assert.match(file.message, /only http and https URLs are supported/);
  assert.equal(server.seen.length, targets.length + 1);
  assert.ok(
    server.seen.every((line) => line.startsWith(`allowed.test:${server.port}/to`)),
    server.seen.join(),
  );
});
