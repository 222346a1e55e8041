/**
 * One contract suite run against server-everything over each transport: its own stdio, Streamable HTTP and
 * SSE modes (bound to 127.0.0.1 by tests/fixtures/mcp/loopback.ts), and its stdio mode exposed over SSE and
 * Streamable HTTP by supergateway: tools, progress, cancelling, roots, prompts (list, get with arguments, an
 * embedded resource) and resources (list, templates, read of text and blob). Then a cancelled call is seen by
 * the server over stdio, SSE and Streamable HTTP.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type CallToolResult, McpConnection } from "../../src/mcp/client.ts";
import type { McpServerSpec } from "../../src/mcp/expand.ts";
import { ReasonixError } from "../../src/lib/errors.ts";
import {
  connectOptions,
  EVERYTHING,
  gateway,
  loopbackServer,
  npmRun,
  npmServer,
  type RunningServer,
  stdio,
} from "./_servers.ts";
import { hostEnv } from "../support/host_env.ts";

const REPO = join(import.meta.dirname!, "../..");
const ENV = hostEnv();

function text(result: CallToolResult): string {
  const content = result.content as { type: string; text?: string }[];
  return content.filter((part) => part.type === "text").map((part) => part.text).join("\n");
}

function remote(name: string, type: "http" | "sse", url: string): McpServerSpec {
  return { ...stdio(name, "", []), type, url };
}

interface Setup {
  name: string;
  /** Starts what the transport needs; returns the server's definition and what stops it. */
  start(cwd: string): Promise<{ spec: McpServerSpec; server?: RunningServer }>;
}

const EVERYTHING_STDIO = [Deno.execPath(), ...npmRun(EVERYTHING, ["stdio"])];

const SETUPS: Setup[] = [
  { name: "stdio", start: () => Promise.resolve({ spec: npmServer("everything", EVERYTHING, ["stdio"]) }) },
  {
    name: "its own Streamable HTTP",
    start: async (cwd) => {
      const server = await loopbackServer(`${EVERYTHING}/dist/index.js`, ["streamableHttp"], {
        cwd,
        env: ENV,
      });
      return { spec: remote("everything", "http", server.url("/mcp")), server };
    },
  },
  {
    name: "its own SSE",
    start: async (cwd) => {
      const server = await loopbackServer(`${EVERYTHING}/dist/index.js`, ["sse"], { cwd, env: ENV });
      return { spec: remote("everything", "sse", server.url("/sse")), server };
    },
  },
  {
    name: "supergateway's SSE",
    start: async (cwd) => {
      const server = await gateway(cwd, "sse", EVERYTHING_STDIO);
      return { spec: remote("everything", "sse", server.url("/sse")), server };
    },
  },
  {
    name: "supergateway's Streamable HTTP",
    start: async (cwd) => {
      const server = await gateway(cwd, "streamableHttp", EVERYTHING_STDIO);
      return { spec: remote("everything", "http", server.url("/mcp")), server };
    },
  },
];

for (const setup of SETUPS) {
  Deno.test(`McpConnection over ${setup.name}: server-everything's tools, progress, cancelling, roots, prompts and resources`, async () => {
    const cwd = await Deno.makeTempDir();
    const { spec, server } = await setup.start(cwd);
    try {
      const connection = await McpConnection.connect(spec, connectOptions(cwd));
      try {
        await everythingContract(connection, cwd);
      } finally {
        await connection.close();
      }
    } finally {
      await server?.stop();
      await Deno.remove(cwd, { recursive: true });
    }
  });
}

async function everythingContract(connection: McpConnection, cwd: string): Promise<void> {
  // server-everything announces tools/list_changed as it connects; the first call must not wait on a refresh.
  assert.match(text(await connection.callTool("echo", { message: "first" })), /first/);
  const tools = (await connection.listTools()).map((tool) => tool.name);
  assert.ok(tools.includes("get-sum") && tools.includes("get-roots-list"), tools.join(","));

  const progress: [number, number | undefined][] = [];
  const done = await connection.callTool("trigger-long-running-operation", { duration: 0.4, steps: 4 }, {
    onProgress: (event) => progress.push([event.progress, event.total]),
  });
  assert.match(text(done), /Long running operation completed/);
  // The last step may race the result, after which the SDK no longer routes its progress.
  assert.deepEqual(progress.slice(0, 3), [[1, 4], [2, 4], [3, 4]]);

  const controller = new AbortController();
  const started = performance.now();
  const long = connection.callTool("trigger-long-running-operation", { duration: 60, steps: 2 }, {
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(), 200);
  const cancelled = await long.then(() => assert.fail("not cancelled"), (error) => error);
  assert.ok(cancelled instanceof ReasonixError && cancelled.code === "mcp.cancelled", String(cancelled));
  assert.ok(performance.now() - started < 5_000);
  assert.match(text(await connection.callTool("get-sum", { a: 2, b: 40 })), /42/);

  // The server asks roots/list; the client answers the workspace.
  const roots = text(await connection.callTool("get-roots-list", {}));
  assert.ok(roots.includes(pathToFileURL(cwd).href), roots);

  await promptsContract(connection);
  await resourcesContract(connection);
}

async function promptsContract(connection: McpConnection): Promise<void> {
  const prompts = await connection.listPrompts();
  const args = prompts.find((prompt) => prompt.name === "args-prompt");
  assert.ok(prompts.some((prompt) => prompt.name === "simple-prompt"), prompts.map((p) => p.name).join(","));
  assert.deepEqual(
    args?.arguments?.map((argument) => [argument.name, argument.required === true]),
    [["city", true], ["state", false]],
  );
  const got = await connection.getPrompt("args-prompt", { city: "Paris", state: "Île-de-France" });
  assert.deepEqual(got.messages, [
    { role: "user", content: { type: "text", text: "What's weather in Paris, Île-de-France?" } },
  ]);
  const only = await connection.getPrompt("args-prompt", { city: "Lyon" });
  assert.deepEqual(only.messages.map((message) => message.content), [{
    type: "text",
    text: "What's weather in Lyon?",
  }]);
  // An embedded resource comes back as a resource part with its text.
  const embedded = await connection.getPrompt("resource-prompt", { resourceType: "Text", resourceId: "2" });
  const resource = embedded.messages.map((message) => message.content).find((part) =>
    part.type === "resource"
  );
  assert.ok(resource?.type === "resource", JSON.stringify(embedded.messages));
  assert.equal(resource.resource.uri, "demo://resource/dynamic/text/2");
  assert.match(resource.resource.text ?? "", /2/);
  const missing = await connection.getPrompt("args-prompt", {}).then(() => null, (error) => error);
  assert.ok(missing instanceof ReasonixError, `a missing required argument is refused: ${missing}`);
}

async function resourcesContract(connection: McpConnection): Promise<void> {
  const resources = await connection.listResources();
  const features = resources.find((resource) =>
    resource.uri === "demo://resource/static/document/features.md"
  );
  assert.ok(features, resources.map((resource) => resource.uri).join(","));
  assert.equal(features.mimeType, "text/markdown");
  const read = await connection.readResource(features.uri);
  assert.equal(read.contents[0]?.uri, features.uri);
  assert.match(read.contents[0]?.text ?? "", /^# /);

  const templates = (await connection.listResourceTemplates()).map((template) => template.uriTemplate);
  assert.ok(templates.includes("demo://resource/dynamic/text/{resourceId}"), templates.join(","));
  assert.ok(templates.includes("demo://resource/dynamic/blob/{resourceId}"), templates.join(","));
  const dynamic = await connection.readResource("demo://resource/dynamic/text/7");
  assert.match(dynamic.contents[0]?.text ?? "", /7/);
  const blob = await connection.readResource("demo://resource/dynamic/blob/7");
  assert.equal(blob.contents[0]?.text, undefined);
  assert.ok((blob.contents[0]?.blob ?? "").length > 0 && atob(blob.contents[0]!.blob!).includes("7"));
  const unknown = await connection.readResource("demo://resource/none/x").then(() => null, (error) => error);
  assert.ok(unknown instanceof ReasonixError, `an unknown resource is refused: ${unknown}`);
}

const CRASH_FIXTURE = [
  Deno.execPath(),
  ...[
    "run",
    "-A",
    "--quiet",
    "--config",
    join(REPO, "deno.json"),
    join(REPO, "tests/fixtures/mcp/crash_server.ts"),
  ],
];

const CANCEL_SETUPS: Setup[] = [
  {
    name: "stdio",
    start: (cwd) => {
      const [command, ...args] = CRASH_FIXTURE;
      const spec = {
        ...stdio("fixture", command!, args),
        env: { FIXTURE_CANCEL_LOG: join(cwd, "cancelled") },
      };
      return Promise.resolve({ spec });
    },
  },
  {
    name: "SSE",
    start: async (cwd) => {
      const env = { ...ENV, FIXTURE_CANCEL_LOG: join(cwd, "cancelled") };
      const server = await gateway(cwd, "sse", CRASH_FIXTURE, env);
      return { spec: remote("fixture", "sse", server.url("/sse")), server };
    },
  },
  {
    name: "Streamable HTTP",
    start: async (cwd) => {
      const env = { ...ENV, FIXTURE_CANCEL_LOG: join(cwd, "cancelled") };
      const server = await gateway(cwd, "streamableHttp", CRASH_FIXTURE, env);
      return { spec: remote("fixture", "http", server.url("/mcp")), server };
    },
  },
];

for (const setup of CANCEL_SETUPS) {
  Deno.test(`McpConnection over ${setup.name}: a cancelled call reaches the server as notifications/cancelled`, async () => {
    const cwd = await Deno.makeTempDir();
    const { spec, server } = await setup.start(cwd);
    try {
      const connection = await McpConnection.connect(spec, connectOptions(cwd));
      try {
        const controller = new AbortController();
        const call = connection.callTool("sleep", { ms: 30_000 }, { signal: controller.signal });
        setTimeout(() => controller.abort(), 300);
        const error = await call.then(() => assert.fail("not cancelled"), (error) => error);
        assert.ok(error instanceof ReasonixError && error.code === "mcp.cancelled", String(error));
        let seen = "";
        for (let tries = 0; tries < 100 && seen === ""; tries++) {
          seen = await Deno.readTextFile(join(cwd, "cancelled")).catch(() => "");
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.equal(seen, "cancelled sleep 30000\n");
        assert.equal(text(await connection.callTool("echo", { text: "still" })), "echo: still");
      } finally {
        await connection.close();
      }
    } finally {
      await server?.stop();
      await Deno.remove(cwd, { recursive: true });
    }
  });
}

Deno.test("McpConnection over SSE: the server going away mid-call fails the call at once", async () => {
  const cwd = await Deno.makeTempDir();
  // supergateway exits when its stdio server does, which ends the event stream.
  const server = await gateway(cwd, "sse", CRASH_FIXTURE);
  try {
    const connection = await McpConnection.connect(
      remote("gone", "sse", server.url("/sse")),
      connectOptions(cwd, { callTimeoutMs: 60_000 }),
    );
    try {
      const started = performance.now();
      const error = await connection.callTool("crash", {}).then(() => assert.fail("no failure"), (e) => e);
      assert.ok(performance.now() - started < 10_000, "not the 60 s call timeout");
      assert.ok(error instanceof ReasonixError && error.code === "mcp.server_failed", String(error));
      assert.match(
        error.message,
        /^MCP server "gone" lost its event stream \(.+\) during tools\/call "crash"$/,
      );
      assert.equal(connection.alive, false, "the next use connects afresh");
    } finally {
      await connection.close();
    }
  } finally {
    await server.stop();
    await Deno.remove(cwd, { recursive: true });
  }
});

for (const [mode, path, type] of [["streamableHttp", "/mcp", "http"], ["sse", "/sse", "sse"]] as const) {
  Deno.test(`McpConnection over server-everything's ${mode}: a server killed mid-call fails the call at once`, async () => {
    const cwd = await Deno.makeTempDir();
    const server = await loopbackServer(`${EVERYTHING}/dist/index.js`, [mode], { cwd, env: ENV });
    try {
      const spec = remote("killed", type, server.url(path));
      const connection = await McpConnection.connect(spec, connectOptions(cwd, { callTimeoutMs: 60_000 }));
      try {
        let progressed: () => void;
        const streaming = new Promise<void>((resolve) => progressed = resolve);
        const call = connection.callTool("trigger-long-running-operation", { duration: 50, steps: 100 }, {
          onProgress: () => progressed(),
        });
        const failed = call.then(() => assert.fail("the call succeeded"), (error) => error);
        await streaming;
        const started = performance.now();
        await server.stop();
        const error = await failed;
        assert.ok(performance.now() - started < 10_000, "not the 60 s call timeout");
        assert.ok(error instanceof ReasonixError && error.code === "mcp.server_failed", String(error));
        assert.match(
          error.message,
          /^MCP server "killed" .+ during tools\/call "trigger-long-running-operation"$/,
        );
        assert.equal(connection.alive, false);
      } finally {
        await connection.close();
      }
    } finally {
      await server.stop();
      await Deno.remove(cwd, { recursive: true });
    }
  });
}
