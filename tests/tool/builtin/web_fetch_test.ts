import assert from "node:assert/strict";
import { createWebFetchTool, webFetchTool } from "../../../src/tool/builtin/web_fetch.ts";
import type { ToolContext } from "../../../src/tool/tool.ts";
import { rejectsWithCode } from "../_tool_context.ts";
import { stateContext } from "./_state_context.ts";

const PAGE = `<!doctype html><html><head><title>Docs &amp; Notes</title>
<style>body { color: red }</style><script>var secret = "in-script";</script></head>
<body><h1>Hello page</h1><p>Some <b>bold</b> text and <a href="https://example.com/x">a link</a>.</p>
<script>document.write("also-in-script")</script><ul><li>one</li><li>two</li></ul></body></html>`;

/** Slow responses wait on these until the test server closes. */
type Release = () => void;

function routes(request: Request, stalled: Release[]): Response | Promise<Response> {
  const { pathname } = new URL(request.url);
  const hop = /^\/hop\/(\d+)$/.exec(pathname);
  if (hop) {
    const left = Number(hop[1]);
    if (left === 0) return new Response("arrived", { headers: { "content-type": "text/plain" } });
    return new Response(null, { status: 302, headers: { location: `/hop/${left - 1}` } });
  }
  switch (pathname) {
    case "/page":
      return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    case "/data":
      return Response.json({ name: "reasonix", tags: ["a", "b"] });
    case "/text":
      return new Response("plain *text*\n", { headers: { "content-type": "text/plain" } });
    case "/latin1":
      return new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), {
        headers: { "content-type": "text/plain; charset=iso-8859-1" },
      });
    case "/untyped":
      return new Response(new TextEncoder().encode("no content type here"));
    case "/image":
      return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), {
        headers: { "content-type": "image/png" },
      });
    case "/untyped-binary":
      return new Response(new Uint8Array([0, 1, 2, 0, 0, 3, 0, 0]));
    case "/big":
      return new Response("x".repeat(4096), { headers: { "content-type": "text/plain" } });
    case "/big-stream":
      return new Response(bigStream(), { headers: { "content-type": "text/plain" } });
    case "/no-location":
      return new Response(null, { status: 301 });
    case "/slow":
      return new Promise((resolve) => stalled.push(() => resolve(new Response("too late"))));
    case "/slow-body":
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("partial"));
            stalled.push(() => controller.close());
          },
        }),
        { headers: { "content-type": "text/plain" } },
      );
    default:
      return new Response("nothing here", { status: 404, statusText: "Not Found" });
  }
}

/** 4 chunks of 1 KB with no Content-Length, so only the streaming cap can stop it. */
function bigStream(): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent++ === 4) controller.close();
      else controller.enqueue(new Uint8Array(1024).fill(0x79));
    },
  });
}

interface TestServer extends AsyncDisposable {
  addr: Deno.NetAddr;
}

function serve(): TestServer {
  const stalled: Release[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => routes(request, stalled),
  );
  return {
    addr: server.addr,
    async [Symbol.asyncDispose]() {
      for (const release of stalled.splice(0)) release();
      await server.shutdown();
    },
  };
}

function base(server: TestServer): string {
  return `http://127.0.0.1:${server.addr.port}`;
}

/** Every test server is on loopback, which web_fetch reaches only when the user config lists it. */
function ctx(network = true): ToolContext {
  return { ...stateContext(), network: { allowed: network, allowPrivate: ["127.0.0.1"] } };
}

Deno.test("webFetchTool converts HTML to Markdown, keeps the title and drops scripts and styles", async () => {
  await using server = serve();
  const result = await webFetchTool.execute({ url: `${base(server)}/page` }, ctx());
  assert.deepEqual(result, {
    output: `URL: ${base(server)}/page\nTitle: Docs & Notes\n\n` +
      "# Hello page\n\nSome **bold** text and [a link](https://example.com/x).\n\n* one\n* two",
    data: {
      kind: "fetch",
      url: `${base(server)}/page`,
      status: 200,
      bytes: new TextEncoder().encode(PAGE).length,
      contentType: "text/html; charset=utf-8",
    },
  });
  const raw = await webFetchTool.execute({ url: `${base(server)}/page`, format: "raw" }, ctx());
  assert.equal(raw.output, `URL: ${base(server)}/page\n\n${PAGE}`);
});

Deno.test("webFetchTool pretty-prints JSON and returns text as is", async () => {
  await using server = serve();
  const json = await webFetchTool.execute({ url: `${base(server)}/data` }, ctx());
  assert.equal(
    json.output,
    `URL: ${base(server)}/data\n\n{\n  "name": "reasonix",\n  "tags": [\n    "a",\n    "b"\n  ]\n}`,
  );
  const text = await webFetchTool.execute({ url: `${base(server)}/text` }, ctx());
  assert.equal(text.output, `URL: ${base(server)}/text\n\nplain *text*\n`);
  const latin1 = await webFetchTool.execute({ url: `${base(server)}/latin1` }, ctx());
  assert.equal(latin1.output, `URL: ${base(server)}/latin1\n\ncafé`);
  const untyped = await webFetchTool.execute({ url: `${base(server)}/untyped` }, ctx());
  assert.equal(untyped.output, `URL: ${base(server)}/untyped\n\nno content type here`);
});

Deno.test("webFetchTool reports a non-2xx status with its reason", async () => {
  await using server = serve();
  const error = await rejectsWithCode(
    webFetchTool.execute({ url: `${base(server)}/gone` }, ctx()),
    "tool.http_status",
  );
  assert.equal(error.message, `Cannot fetch "${base(server)}/gone": HTTP 404 Not Found`);
  const bare = await rejectsWithCode(
    webFetchTool.execute({ url: `${base(server)}/no-location` }, ctx()),
    "tool.http_status",
  );
  assert.match(bare.message, /HTTP 301 without a Location/);
});

Deno.test("webFetchTool follows up to 5 redirects and reports the final URL", async () => {
  await using server = serve();
  const result = await webFetchTool.execute({ url: `${base(server)}/hop/5` }, ctx());
  assert.equal(result.output, `URL: ${base(server)}/hop/0\n\narrived`);
  const error = await rejectsWithCode(
    webFetchTool.execute({ url: `${base(server)}/hop/6` }, ctx()),
    "tool.too_many_redirects",
  );
  assert.equal(
    error.message,
    `Cannot fetch "${base(server)}/hop/6": more than 5 redirects (last to "/hop/0")`,
  );
});

Deno.test("webFetchTool refuses responses over the size limit, declared or streamed", async () => {
  await using server = serve();
  const tool = createWebFetchTool({ maxBytes: 1024 });
  const declared = await rejectsWithCode(
    tool.execute({ url: `${base(server)}/big` }, ctx()),
    "tool.response_too_large",
  );
  assert.equal(
    declared.message,
    `Cannot fetch "${base(server)}/big": the response is larger than the 1 KB limit`,
  );
  await rejectsWithCode(
    tool.execute({ url: `${base(server)}/big-stream` }, ctx()),
    "tool.response_too_large",
  );
  assert.match((await tool.execute({ url: `${base(server)}/text` }, ctx())).output, /plain \*text\*/);
});

Deno.test("webFetchTool gives up on a slow server at its time limit", async () => {
  await using server = serve();
  const tool = createWebFetchTool({ timeoutMs: 100 });
  const error = await rejectsWithCode(tool.execute({ url: `${base(server)}/slow` }, ctx()), "tool.timeout");
  assert.equal(error.message, `Cannot fetch "${base(server)}/slow": no complete response within 0.1 s`);
  await rejectsWithCode(tool.execute({ url: `${base(server)}/slow-body` }, ctx()), "tool.timeout");
});

Deno.test("webFetchTool stops when the turn is interrupted", async () => {
  await using server = serve();
  const controller = new AbortController();
  const pending = webFetchTool.execute({ url: `${base(server)}/slow` }, {
    ...ctx(),
    signal: controller.signal,
  });
  controller.abort();
  await assert.rejects(pending, (error: Error) => error.name === "AbortError");
});

Deno.test("webFetchTool refuses binary content", async () => {
  await using server = serve();
  const image = await rejectsWithCode(
    webFetchTool.execute({ url: `${base(server)}/image` }, ctx()),
    "tool.unsupported_content",
  );
  assert.equal(
    image.message,
    `Cannot fetch "${base(server)}/image": the response is binary ("image/png"); web_fetch returns text only`,
  );
  await rejectsWithCode(
    webFetchTool.execute({ url: `${base(server)}/untyped-binary` }, ctx()),
    "tool.unsupported_content",
  );
});

Deno.test("webFetchTool refuses when network access is off, naming the setting", async () => {
  const error = await rejectsWithCode(
    webFetchTool.execute({ url: "http://127.0.0.1:9/never" }, ctx(false)),
    "tool.network_disabled",
  );
  assert.equal(
    error.message,
    'Cannot fetch "http://127.0.0.1:9/never": network access is turned off; set [sandbox] network = true to allow it',
  );
});

Deno.test("webFetchTool accepts only absolute http and https URLs", async () => {
  const ftp = await rejectsWithCode(
    webFetchTool.execute({ url: "ftp://example.com/x" }, ctx()),
    "tool.invalid_url",
  );
  assert.equal(ftp.message, 'Cannot fetch "ftp://example.com/x": only http and https URLs are supported');
  await rejectsWithCode(webFetchTool.execute({ url: "/relative" }, ctx()), "tool.invalid_url");
});

Deno.test("webFetchTool reports a refused connection", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const error = await rejectsWithCode(
    webFetchTool.execute({ url: `http://127.0.0.1:${port}/` }, ctx()),
    "tool.fetch_failed",
  );
  assert.match(error.message, new RegExp(`^Cannot fetch "http://127.0.0.1:${port}/": `));
});
