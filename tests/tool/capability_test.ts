import assert from "node:assert/strict";
import { z } from "zod";
import { dispatchToolCalls, type Gate } from "../../src/agent/dispatch.ts";
import type { ToolCall } from "../../src/provider/provider.ts";
import { builtinRegistry, MODE_TOOLS, PROXIED_TOOLS } from "../../src/tool/builtin/mod.ts";
import { capabilityTool } from "../../src/tool/capability.ts";
import { buildCatalog, callShape } from "../../src/tool/catalog.ts";
import { ToolRegistry } from "../../src/tool/registry.ts";
import { defineTool, type ToolContext, type ToolSpec } from "../../src/tool/tool.ts";

function context(): ToolContext {
  return {
    signal: new AbortController().signal,
    workspace: { root: "/nonexistent", extraWritable: [], forbidRead: [] },
    sandbox: {
      name: "unused",
      runShell: () => Promise.reject(new Error("no shell")),
      runArgv: () => Promise.reject(new Error("no argv")),
    },
    limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 32000 },
  };
}

function tool(name: string, readOnly: boolean, description = `Does ${name}. More text.`): ToolSpec {
  return defineTool({
    name,
    description,
    parameters: z.object({ target: z.string().describe("What"), count: z.number().int().optional() }),
    readOnly,
    execute: (args) => Promise.resolve({ output: `${name} ran on ${args.target}` }),
  }) as ToolSpec;
}

/** `shown` and `writer` proxied, `direct` sent in the tools array, plus use_capability. */
function registry(enabled?: string[]): ToolRegistry {
  const specs = [
    tool("writer", false, "Writes a file. It changes things."),
    tool("shown", true),
    tool("direct", true),
  ];
  const made = new ToolRegistry(specs, { proxied: ["shown", "writer"], ...(enabled ? { enabled } : {}) });
  made.register(capabilityTool(made));
  return made;
}

function proxyCall(args: Record<string, unknown>, id = "call_1"): ToolCall {
  return { id, type: "function", function: { name: "use_capability", arguments: JSON.stringify(args) } };
}

async function run(made: ToolRegistry, args: Record<string, unknown>, gate?: Gate) {
  const started: ToolCall[] = [];
  const [outcome] = await dispatchToolCalls([proxyCall(args)], {
    registry: made,
    ctx: context(),
    ...(gate ? { gate } : {}),
    onStart: (call) => started.push(call),
  });
  return { outcome: outcome!, started };
}

Deno.test("the tools array holds the direct tools and use_capability only, sorted", () => {
  const names = (JSON.parse(registry().toolsJson()) as { function: { name: string } }[])
    .map((entry) => entry.function.name);
  assert.deepEqual(names, ["direct", "use_capability"]);
  assert.deepEqual(registry().proxiedNames(), ["shown", "writer"]);
});

Deno.test("[tools].enabled keeps ask, use_capability, submit_plan and update_goal, and filters proxied tools too", () => {
  const made = registry(["shown"]);
  assert.deepEqual(made.names(), ["shown", "use_capability"]);
  const builtin = builtinRegistry([], { enabled: ["read_file"] });
  assert.deepEqual(builtin.directNames(), ["ask", "read_file", "use_capability"]);
  assert.deepEqual(builtin.proxiedNames(), ["submit_plan", "update_goal"]);
});

Deno.test("the catalogue is sorted, and its version follows its content only", () => {
  const a = buildCatalog(registry());
  const b = buildCatalog(registry());
  assert.deepEqual(a, b);
  assert.deepEqual(a.entries.map((entry) => entry.id), ["tool:shown", "tool:writer"]);
  assert.deepEqual(a.entries[1], {
    id: "tool:writer",
    kind: "tool",
    name: "writer",
    status: "available",
    read_only: false,
    description: "Writes a file.",
  });
  const changed = new ToolRegistry([
    tool("writer", false, "Writes a file. It changes things."),
    tool("shown", true),
  ], {
    proxied: ["shown"],
  });
  assert.notEqual(buildCatalog(changed).version, a.version);
  assert.equal(buildCatalog(builtinRegistry()).version, buildCatalog(builtinRegistry()).version);
  assert.deepEqual(builtinRegistry().proxiedNames(), [...PROXIED_TOOLS, ...MODE_TOOLS].sort());
});

Deno.test("list pages with a cursor; search adds argument names; inspect gives the schema", async () => {
  const made = registry();
  const page = JSON.parse((await run(made, { action: "list", limit: 1 })).outcome.output);
  assert.deepEqual(Object.keys(page), ["catalog_version", "servers", "capabilities", "next_cursor"]);
  assert.deepEqual(page.capabilities.map((c: { id: string }) => c.id), ["tool:shown"]);
  assert.equal(page.next_cursor, "1");
  const rest = JSON.parse((await run(made, { action: "list", cursor: "1" })).outcome.output);
  assert.deepEqual(rest.capabilities.map((c: { id: string }) => c.id), ["tool:writer"]);
  assert.equal(rest.next_cursor, null);

  const found = JSON.parse((await run(made, { action: "search", query: "write a file" })).outcome.output);
  assert.equal(found.capabilities[0].id, "tool:writer");
  assert.deepEqual(found.capabilities[0].argument_names, ["count", "target"]);
  assert.deepEqual(found.capabilities[0].required_arguments, ["target"]);

  const inspected = JSON.parse(
    (await run(made, { action: "inspect", capability_id: "tool:writer" })).outcome.output,
  );
  assert.equal(inspected.description, "Writes a file. It changes things.");
  assert.deepEqual(inspected.parameters.required, ["target"]);
  assert.equal(callShape(made, "writer"), "writer(target*, count)");
});

Deno.test("call runs the inner tool under its own name, through the gate with the inner spec", async () => {
  const gated: string[] = [];
  const gate: Gate = {
    check: (spec) => {
      gated.push(`${spec.name}:${spec.readOnly}`);
      return Promise.resolve({ allow: true });
    },
  };
  const args = { action: "call", capability_id: "tool:writer", arguments: { target: "a.txt" } };
  const { outcome, started } = await run(registry(), args, gate);
  assert.equal(outcome.ok, true);
  assert.equal(outcome.output, "writer ran on a.txt");
  assert.equal(outcome.name, "writer");
  assert.equal(outcome.calledAs, "use_capability");
  assert.equal(outcome.readOnly, false);
  assert.deepEqual(gated, ["writer:false"]);
  assert.deepEqual(started.map((call) => [call.id, call.function.name, call.function.arguments]), [
    ["call_1", "writer", `{"target":"a.txt"}`],
  ]);
});

Deno.test("a bad proxied call says what is wrong without running anything", async () => {
  const made = registry(["shown", "direct"]);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ action: "call" }, /^Error \[tool\.invalid_args\]: use_capability "call" needs capability_id/],
    [
      { action: "call", capability_id: "grep" },
      /^Error \[capability\.unknown\]: There is no capability "grep"/,
    ],
    [{ action: "call", capability_id: "tool:writer" }, /^Error \[capability\.unknown\]: .*"tool:writer"/],
    [{ action: "call", capability_id: "tool:use_capability" }, /cannot call itself/],
    [{ action: "jump" }, /^Error \[tool\.invalid_args\]: Invalid arguments for "use_capability"/],
    [
      { action: "call", capability_id: "tool:shown", arguments: { target: 3 } },
      /"target": expected string, received number 3[\s\S]*Arguments of "shown" \(\* = required\): count \(integer\), target\* \(string\)/,
    ],
  ];
  for (const [args, expected] of cases) {
    const { outcome } = await run(made, args);
    assert.equal(outcome.ok, false, JSON.stringify(args));
    assert.match(outcome.output, expected);
  }
});
