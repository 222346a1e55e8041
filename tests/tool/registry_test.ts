import assert from "node:assert/strict";
import { z } from "zod";
import { schemaConversions, ToolRegistry } from "../../src/tool/registry.ts";
import { defineTool, type ToolSpec } from "../../src/tool/tool.ts";

function tool(name: string, parameters: z.ZodType = z.object({}), readOnly = true): ToolSpec {
  return defineTool({
    name,
    description: `The ${name} tool`,
    parameters,
    readOnly,
    execute: () => Promise.resolve({ output: name }),
  }) as ToolSpec;
}

function sampleTools(): ToolSpec[] {
  return [
    tool(
      "zeta",
      z.object({ path: z.string().describe("A path"), limit: z.number().int().min(1).optional() }),
    ),
    tool("alpha", z.object({ mode: z.enum(["a", "b"]), tags: z.array(z.string()).optional() })),
    tool("mid", z.object({ nested: z.object({ y: z.boolean(), x: z.string() }) })),
  ];
}

Deno.test("ToolRegistry.toolsJson() is byte-identical whatever the registration order", () => {
  const forward = new ToolRegistry(sampleTools());
  const backward = new ToolRegistry(sampleTools().reverse());
  assert.equal(forward.toolsJson(), backward.toolsJson());
  for (const name of forward.names()) assert.equal(forward.toolJson(name), backward.toolJson(name));
  const parsed = JSON.parse(forward.toolsJson()) as { function: { name: string } }[];
  assert.deepEqual(parsed.map((entry) => entry.function.name), ["alpha", "mid", "zeta"]);
});

Deno.test("ToolRegistry freezes canonical, cleaned function entries", () => {
  const registry = new ToolRegistry(sampleTools());
  const json = registry.toolJson("zeta")!;
  assert.equal(
    json,
    '{"function":{"description":"The zeta tool","name":"zeta","parameters":{' +
      '"properties":{"limit":{"minimum":1,"type":"integer"},"path":{"description":"A path","type":"string"}},' +
      '"required":["path"],"type":"object"}},"type":"function"}',
  );
  assert.doesNotMatch(registry.toolsJson(), /\$schema|~standard|9007199254740991/);
  assert.deepEqual(registry.requiredArgs("zeta"), ["path"]);
  assert.deepEqual(registry.requiredArgs("mid"), ["nested"]);
});

Deno.test("ToolRegistry drops only the not-empty bounds, keeping the ones that say something", () => {
  const parameters = z.object({
    a: z.string().min(1),
    b: z.string().min(2),
    n: z.number().int().positive(),
    m: z.number().int().min(0),
  });
  const json = new ToolRegistry([tool("bounded", parameters)]).toolJson("bounded")!;
  const properties = JSON.parse(json).function.parameters.properties;
  assert.deepEqual(properties, {
    a: { type: "string" },
    b: { minLength: 2, type: "string" },
    m: { minimum: 0, type: "integer" },
    n: { type: "integer" },
  });
});

Deno.test("ToolRegistry keeps argument names that look like meta keys", () => {
  const registry = new ToolRegistry([tool("odd", z.object({ $schema: z.string(), $id: z.number() }))]);
  const parameters = JSON.parse(registry.toolJson("odd")!).function.parameters;
  assert.deepEqual(Object.keys(parameters.properties), ["$id", "$schema"]);
});

Deno.test("ToolRegistry converts each schema once however often it is listed", () => {
  const before = schemaConversions();
  const registry = new ToolRegistry(sampleTools());
  assert.equal(schemaConversions() - before, 3);
  const first = registry.toolsJson();
  for (let i = 0; i < 100; i++) {
    assert.equal(registry.toolsJson(), first);
    registry.specs();
    registry.toolJson("alpha");
  }
  assert.equal(schemaConversions() - before, 3);
  registry.register(tool("beta"));
  assert.equal(schemaConversions() - before, 4);
  assert.notEqual(registry.toolsJson(), first);
  assert.deepEqual(registry.names(), ["alpha", "beta", "mid", "zeta"]);
});

Deno.test("ToolRegistry honours the enabled filter", () => {
  const filtered = new ToolRegistry(sampleTools(), { enabled: ["zeta", "alpha", "missing"] });
  assert.deepEqual(filtered.names(), ["alpha", "zeta"]);
  assert.equal(filtered.get("mid"), undefined);
  assert.equal(filtered.register(tool("other")), false);
  assert.equal(filtered.get("other"), undefined);
  assert.deepEqual(filtered.specs().map((spec) => spec.name), ["alpha", "zeta"]);
  assert.deepEqual(
    JSON.parse(filtered.toolsJson()).map((t: { function: { name: string } }) => t.function.name),
    [
      "alpha",
      "zeta",
    ],
  );
  for (const enabled of [[], undefined]) {
    assert.deepEqual(new ToolRegistry(sampleTools(), { enabled }).names(), ["alpha", "mid", "zeta"]);
  }
});

Deno.test("ToolRegistry.register() refuses a duplicate name, enabled or not", () => {
  const registry = new ToolRegistry(sampleTools());
  assert.throws(() => registry.register(tool("alpha")), { code: "tool.duplicate", message: /"alpha"/ });
  const filtered = new ToolRegistry([tool("hidden")], { enabled: ["shown"] });
  assert.throws(() => filtered.register(tool("hidden")), { code: "tool.duplicate" });
});

Deno.test("ToolRegistry.register() refuses names the provider rejects and schemas with no JSON form", () => {
  const registry = new ToolRegistry();
  assert.throws(() => registry.register(tool("has space")), { code: "tool.invalid_name" });
  assert.throws(() => registry.register(tool("dated", z.object({ at: z.date() }))), {
    code: "tool.invalid_schema",
  });
  assert.equal(registry.toolsJson(), "[]");
});

Deno.test("ToolRegistry.get() returns the registered spec", () => {
  const spec = tool("alpha");
  const registry = new ToolRegistry([spec]);
  assert.equal(registry.get("alpha"), spec);
  assert.equal(registry.get("nope"), undefined);
});

Deno.test("ToolRegistry sends an open object argument as just an object", () => {
  const registry = new ToolRegistry([tool("open", z.object({ args: z.record(z.string(), z.unknown()) }))]);
  assert.equal(
    registry.toolJson("open"),
    `{"function":{"description":"The open tool","name":"open","parameters":{"properties":{"args":{"type":"object"}},"required":["args"],"type":"object"}},"type":"function"}`,
  );
  assert.equal(registry.get("open")!.parameters.safeParse({ args: "text" }).success, false);
});

Deno.test("ToolRegistry leaves proxied tools out of the tools array, still reachable by name", () => {
  const registry = new ToolRegistry(sampleTools(), { proxied: ["mid"] });
  assert.deepEqual(registry.directNames(), ["alpha", "zeta"]);
  assert.deepEqual(registry.proxiedNames(), ["mid"]);
  assert.doesNotMatch(registry.toolsJson(), /"mid"/);
  assert.equal(registry.get("mid")?.name, "mid");
  assert.equal(registry.isProxied("mid"), true);
});

Deno.test("ToolRegistry.register() with a JSON Schema sends it canonical; proxied or recorded registrations keep the array", () => {
  const registry = new ToolRegistry(sampleTools());
  const given = {
    ...tool("mcp__s__given", z.unknown()),
    inputSchema: {
      type: "object",
      required: ["b"],
      properties: { b: { type: "string" }, a: { minLength: 1 } },
    },
  };
  assert.equal(registry.register(given), true);
  assert.match(
    registry.toolJson("mcp__s__given")!,
    /"parameters":\{"properties":\{"a":\{"minLength":1\},"b":\{"type":"string"\}\},"required":\["b"\],"type":"object"\}/,
  );
  assert.deepEqual(registry.requiredArgs("mcp__s__given"), ["b"]);
  const array = registry.toolsJson();
  const revision = registry.revision;
  assert.equal(registry.register(tool("mcp__s__late"), { proxied: true }), true);
  assert.equal(registry.toolsJson(), array, "a proxied registration leaves the array as it was");
  assert.ok(registry.isProxied("mcp__s__late") && registry.has("mcp__s__late"));
  assert.ok(registry.revision > revision, "the catalogue sees a new revision");
  const recorded =
    `{"function":{"description":"old words","name":"mcp__s__old","parameters":{"type":"object"}},` +
    `"type":"function"}`;
  registry.register(tool("mcp__s__old"), { json: recorded });
  assert.equal(registry.toolJson("mcp__s__old"), recorded, "recorded bytes are sent as they were");
  assert.ok(registry.toolsJson().includes(recorded));
});

Deno.test("ToolRegistry.refresh() asks every source and servers() lists theirs sorted", async () => {
  const registry = new ToolRegistry();
  let asked = 0;
  registry.addSource({
    refresh: () => {
      asked++;
      registry.register(tool(`mcp__x__t${asked}`), { proxied: true });
      return Promise.resolve();
    },
    servers: () => [{ name: "zed", status: "connected" }, { name: "abe", status: "failed" }],
  });
  await registry.refresh();
  assert.equal(asked, 1);
  assert.deepEqual(registry.proxiedNames(), ["mcp__x__t1"]);
  assert.deepEqual(registry.servers().map((s) => s.name), ["abe", "zed"]);
});
