import assert from "node:assert/strict";
import { z } from "zod";
import { type CallOutcome, dispatchToolCalls, type Gate } from "../../src/agent/dispatch.ts";
import type { ToolCall } from "../../src/provider/provider.ts";
import type { RunResult, Sandbox } from "../../src/sandbox/sandbox.ts";
import { ToolRegistry } from "../../src/tool/registry.ts";
import {
  defineTool,
  type ToolContext,
  ToolError,
  type ToolResult,
  type ToolSpec,
} from "../../src/tool/tool.ts";

const noSandbox: Sandbox = {
  name: "unused",
  runShell: () => Promise.reject(new Error("no shell in dispatch tests")),
  runArgv: (): Promise<RunResult> => Promise.reject(new Error("no argv in dispatch tests")),
};

function context(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: new AbortController().signal,
    workspace: { root: "/nonexistent", extraWritable: [], forbidRead: [] },
    sandbox: noSandbox,
    limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 32000 },
    ...overrides,
  };
}

function call(name: string, args: string | object, id = `call_${name}`): ToolCall {
  const text = typeof args === "string" ? args : JSON.stringify(args);
  return { id, type: "function", function: { name, arguments: text } };
}

interface FakeTool {
  name: string;
  readOnly?: boolean;
  parameters?: z.ZodType;
  truncationHint?: string;
  run?: (args: unknown, ctx: ToolContext) => Promise<ToolResult>;
}

function fake(options: FakeTool): ToolSpec {
  return defineTool({
    name: options.name,
    description: `Fake ${options.name}`,
    parameters: options.parameters ?? z.object({}),
    readOnly: options.readOnly ?? true,
    ...(options.truncationHint ? { truncationHint: options.truncationHint } : {}),
    execute: options.run ?? (() => Promise.resolve({ output: `${options.name} ran` })),
  }) as ToolSpec;
}

async function dispatchOne(spec: ToolSpec, raw: string | object, ctx = context()): Promise<CallOutcome> {
  const registry = new ToolRegistry([spec]);
  const [outcome] = await dispatchToolCalls([call(spec.name, raw)], { registry, ctx });
  return outcome!;
}

Deno.test("dispatchToolCalls() runs a valid call and records its outcome", async () => {
  const before = Date.now();
  const outcome = await dispatchOne(fake({ name: "echo" }), "");
  const { durationMs, startedAt, ...rest } = outcome;
  assert.deepEqual(rest, {
    callId: "call_echo",
    name: "echo",
    calledAs: "echo",
    ok: true,
    output: "echo ran",
    truncated: false,
    readOnly: true,
  });
  assert.ok(durationMs >= 0);
  assert.ok(startedAt >= before && startedAt <= Date.now());
});

Deno.test("dispatchToolCalls() explains arguments that are not valid JSON", async () => {
  const outcome = await dispatchOne(fake({ name: "echo" }), '{"path": "a",, "x": 1}');
  assert.equal(outcome.ok, false);
  assert.equal(outcome.code, "tool.invalid_json");
  assert.match(outcome.output, /^Error \[tool\.invalid_json\]: The arguments for "echo" are not valid JSON/);
  assert.match(outcome.output, /position 13/);
  assert.match(outcome.output, /"\{\\"path\\": \\"a\\"," <here> ", \\"x\\": 1\}"/);
  assert.match(outcome.output, /one JSON object/);
  for (const raw of ['{"path": "a"', '{"a":']) {
    const cut = await dispatchOne(fake({ name: "echo" }), raw);
    assert.match(cut.output, /ends before the JSON is complete/);
  }
});

Deno.test("dispatchToolCalls() names the available tools for an unknown tool", async () => {
  const registry = new ToolRegistry([fake({ name: "read_file" }), fake({ name: "bash", readOnly: false })]);
  const [outcome] = await dispatchToolCalls([call("Read", {})], { registry, ctx: context() });
  assert.equal(outcome!.code, "tool.unknown");
  assert.equal(
    outcome!.output,
    'Error [tool.unknown]: There is no tool named "Read"; the available tools are: bash, read_file',
  );
  assert.equal(outcome!.readOnly, false);
});

Deno.test("dispatchToolCalls() names each bad argument, what was expected and received, and the required ones", async () => {
  let ran = false;
  const spec = fake({
    name: "read",
    parameters: z.object({
      path: z.string(),
      limit: z.number().int().min(1).optional(),
      mode: z.enum(["fast", "slow"]).optional(),
      items: z.array(z.object({ id: z.string() })).optional(),
    }),
    run: () => {
      ran = true;
      return Promise.resolve({ output: "" });
    },
  });
  const outcome = await dispatchOne(spec, { limit: 0, mode: "medium", items: [{ id: 7 }] });
  assert.equal(ran, false);
  assert.equal(outcome.code, "tool.invalid_args");
  assert.equal(
    outcome.output,
    [
      'Error [tool.invalid_args]: Invalid arguments for "read":',
      '- "path": expected string, received nothing (the argument is missing)',
      '- "limit": too small: expected number to be >=1, received number 0',
      '- "mode": expected one of "fast", "slow", received string "medium"',
      '- "items[0].id": expected string, received number 7',
      'Required arguments: "path". Fix the arguments above and call "read" again',
    ].join("\n"),
  );
  const notObject = await dispatchOne(spec, "[1]");
  assert.match(notObject.output, /- the arguments: expected object, received array \[1\]/);
});

Deno.test("dispatchToolCalls() passes a ToolError's code through", async () => {
  const spec = fake({
    name: "read",
    run: () => Promise.reject(new ToolError("tool.path_outside_workspace", 'Cannot read "/etc": outside')),
  });
  const outcome = await dispatchOne(spec, {});
  assert.equal(outcome.ok, false);
  assert.equal(outcome.code, "tool.path_outside_workspace");
  assert.equal(outcome.output, 'Error [tool.path_outside_workspace]: Cannot read "/etc": outside');
});

Deno.test("dispatchToolCalls() turns any other thrown error into tool.failed", async () => {
  const spec = fake({
    name: "boom",
    run: () => {
      throw new RangeError("Index 9 is out of range");
    },
  });
  const outcome = await dispatchOne(spec, {});
  assert.equal(outcome.code, "tool.failed");
  assert.equal(outcome.output, "Error [tool.failed]: Index 9 is out of range");
});

Deno.test("dispatchToolCalls() asks the gate with parsed arguments and honours a denial", async () => {
  let ran = false;
  const seen: unknown[] = [];
  const gate: Gate = {
    check(spec, args) {
      seen.push([spec.name, args]);
      return Promise.resolve({
        allow: false,
        code: "permission.denied",
        message: 'The user declined "write"',
      });
    },
  };
  const spec = fake({
    name: "write",
    readOnly: false,
    parameters: z.object({ path: z.string() }),
    run: () => {
      ran = true;
      return Promise.resolve({ output: "written" });
    },
  });
  const registry = new ToolRegistry([spec]);
  const [outcome] = await dispatchToolCalls([call("write", { path: "a.txt" })], {
    registry,
    ctx: context(),
    gate,
  });
  assert.equal(ran, false);
  assert.deepEqual(seen, [["write", { path: "a.txt" }]]);
  assert.equal(outcome!.code, "permission.denied");
  assert.equal(outcome!.output, 'Error [permission.denied]: The user declined "write"');
});

Deno.test("dispatchToolCalls() cuts long output to the budget with a marker and the tool's hint", async () => {
  const lines = Array.from({ length: 500 }, (_, i) => `line ${i} ${"é".repeat(i % 7)}😀`);
  const text = lines.join("\n");
  const spec = fake({
    name: "big",
    truncationHint: "use offset/limit",
    run: () => Promise.resolve({ output: text }),
  });
  const ctx = context({ limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 2000 } });
  const outcome = await dispatchOne(spec, {}, ctx);
  const total = new TextEncoder().encode(text).length;
  assert.equal(outcome.truncated, true);
  assert.ok(new TextEncoder().encode(outcome.output).length <= 2000);
  assert.ok(!outcome.output.includes("\uFFFD"));
  const [head, tail] = outcome.output.split(
    /\n\[\.\.\. \d+ bytes omitted of \d+; use offset\/limit \.\.\.\]\n/,
  );
  assert.ok(text.startsWith(`${head}\n`), "the head is a run of whole lines from the start");
  assert.ok(text.endsWith(`\n${tail}`), "the tail is a run of whole lines from the end");
  const omitted = Number(/\[\.\.\. (\d+) bytes omitted of (\d+)/.exec(outcome.output)![1]);
  const kept = new TextEncoder().encode(`${head}\n${tail}`).length;
  assert.equal(omitted + kept, total);
  assert.match(outcome.output, new RegExp(`omitted of ${total};`));
  assert.ok(head!.length > tail!.length, "the head gets the larger share");
});

Deno.test("dispatchToolCalls() splits no character when the output has no newlines", async () => {
  const text = "日本語".repeat(2000);
  const ctx = context({ limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 1001 } });
  const outcome = await dispatchOne(
    fake({ name: "cjk", run: () => Promise.resolve({ output: text }) }),
    {},
    ctx,
  );
  assert.ok(!outcome.output.includes("\uFFFD"));
  assert.ok(new TextEncoder().encode(outcome.output).length <= 1001);
  const [head, tail] = outcome.output.split(/\n\[\.\.\..*\.\.\.\]\n/);
  assert.ok(text.startsWith(head!) && text.endsWith(tail!) && head!.length > 0 && tail!.length > 0);
  assert.match(outcome.output, /ask for a narrower part of the output/);
});

Deno.test("dispatchToolCalls() leaves output alone when the tool already truncated it", async () => {
  const text = "x".repeat(5000);
  const ctx = context({ limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 100 } });
  const spec = fake({ name: "own", run: () => Promise.resolve({ output: text, truncated: true }) });
  const outcome = await dispatchOne(spec, {}, ctx);
  assert.equal(outcome.output, text);
  assert.equal(outcome.truncated, true);
});

Deno.test("dispatchToolCalls() runs a read-only batch concurrently and returns outcomes in call order", async () => {
  let arrived = 0;
  let release!: () => void;
  const barrier = new Promise<void>((resolve) => release = resolve);
  const done: string[] = [];
  async function meet(name: string): Promise<ToolResult> {
    arrived++;
    if (arrived === 2) release();
    // Sequential dispatch deadlocks here and the test fails with a pending promise.
    await barrier;
    done.push(name);
    return { output: `${name} met` };
  }
  const registry = new ToolRegistry([
    fake({ name: "first", run: () => meet("first") }),
    fake({ name: "second", run: () => meet("second") }),
  ]);
  const finished: string[] = [];
  const outcomes = await dispatchToolCalls([call("first", {}), call("second", {})], {
    registry,
    ctx: context(),
    onDone: (outcome) => finished.push(outcome.name),
  });
  assert.deepEqual(outcomes.map((o) => o.output), ["first met", "second met"]);
  assert.equal(arrived, 2);
  assert.equal(finished.length, 2);
});

Deno.test("dispatchToolCalls() runs a batch with a writer strictly in order", async () => {
  const events: string[] = [];
  function recorder(name: string, readOnly: boolean): ToolSpec {
    return fake({
      name,
      readOnly,
      run: async () => {
        events.push(`${name}:start`);
        await Promise.resolve();
        await Promise.resolve();
        events.push(`${name}:end`);
        return { output: name };
      },
    });
  }
  const registry = new ToolRegistry([recorder("a", true), recorder("w", false), recorder("b", true)]);
  const started: string[] = [];
  const outcomes = await dispatchToolCalls([call("a", {}), call("w", {}), call("b", {})], {
    registry,
    ctx: context(),
    onStart: (c) => started.push(c.function.name),
  });
  assert.deepEqual(events, ["a:start", "a:end", "w:start", "w:end", "b:start", "b:end"]);
  assert.deepEqual(started, ["a", "w", "b"]);
  assert.deepEqual(outcomes.map((o) => [o.name, o.readOnly]), [["a", true], ["w", false], ["b", true]]);
});

Deno.test("dispatchToolCalls() reports calls after an abort as tool.aborted", async () => {
  const controller = new AbortController();
  const ran: string[] = [];
  const registry = new ToolRegistry([
    fake({
      name: "stopper",
      readOnly: false,
      run: (_args, ctx) => {
        ran.push("stopper");
        controller.abort();
        return Promise.reject(ctx.signal.reason);
      },
    }),
    fake({ name: "later", run: () => Promise.resolve({ output: (ran.push("later"), "later") }) }),
  ]);
  const outcomes = await dispatchToolCalls([call("stopper", {}), call("later", {})], {
    registry,
    ctx: context({ signal: controller.signal }),
  });
  assert.deepEqual(ran, ["stopper"]);
  assert.deepEqual(outcomes.map((o) => o.code), ["tool.aborted", "tool.aborted"]);
  assert.match(outcomes[1]!.output, /^Error \[tool\.aborted\]: Not run/);
});

Deno.test("dispatchToolCalls() returns no outcomes for no calls", async () => {
  assert.deepEqual(await dispatchToolCalls([], { registry: new ToolRegistry(), ctx: context() }), []);
});

Deno.test("bounds the schema leaves out for the model are still enforced, as tool errors", async () => {
  const parameters = z.object({ name: z.string().min(1), count: z.number().int().positive() });
  const spec = fake({ name: "named", parameters });
  const json = new ToolRegistry([spec]).toolJson("named")!;
  assert.doesNotMatch(json, /minLength|exclusiveMinimum/);
  for (const args of [{ name: "", count: 1 }, { name: "x", count: 0 }]) {
    const outcome = await dispatchOne(spec, args);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.code, "tool.invalid_args");
  }
  assert.equal((await dispatchOne(spec, { name: "x", count: 1 })).ok, true);
});

Deno.test("dispatchToolCalls() plans a previewing writer once, for the gate and the write", async () => {
  let plans = 0;
  let applied = 0;
  const spec = defineTool({
    name: "planned",
    description: "Fake planned writer",
    parameters: z.object({}),
    readOnly: false,
    execute: () => Promise.reject(new Error("execute must not run when a plan exists")),
    plan: () => {
      plans++;
      return Promise.resolve({
        change: { path: "x", kind: "create" as const, oldText: null, newText: "x" },
        touches: [],
        apply: () => Promise.resolve({ output: `applied ${++applied}` }),
      });
    },
  }) as ToolSpec;
  const shown: string[] = [];
  const gate: Gate = {
    async check(_spec, _args, gated) {
      shown.push((await gated!.plan!()).change.newText!);
      return { allow: true };
    },
  };
  const registry = new ToolRegistry([spec]);
  const [withGate] = await dispatchToolCalls([call("planned", {})], { registry, ctx: context(), gate });
  const [noGate] = await dispatchToolCalls([call("planned", {})], { registry, ctx: context() });
  assert.deepEqual([withGate!.output, noGate!.output, plans, shown], ["applied 1", "applied 2", 2, ["x"]]);
});

Deno.test("dispatchToolCalls() leaves the gate's wait for a person out of the call's duration", async () => {
  const waited: Gate = {
    async check() {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return { allow: true, waitedMs: 400 };
    },
  };
  const failing = fake({ name: "boom", run: () => Promise.reject(new Error("broke")) });
  const registry = new ToolRegistry([fake({ name: "quick" }), failing]);
  const calls = [call("quick", {}), call("boom", {})];
  const outcomes = await dispatchToolCalls(calls, { registry, ctx: context(), gate: waited });
  assert.deepEqual(outcomes.map((outcome) => outcome.ok), [true, false]);
  for (const outcome of outcomes) {
    assert.ok(outcome.durationMs < 200, `${outcome.name}: ${outcome.durationMs}`);
  }
});

Deno.test("dispatchToolCalls() hands each call its own progress reporter, at most one report per 100 ms", async () => {
  const spec = fake({
    name: "slow",
    run: async (_args, ctx) => {
      ctx.onProgress?.({ progress: 1, total: 3 });
      ctx.onProgress?.({ progress: 2, total: 3 });
      await new Promise((resolve) => setTimeout(resolve, 150));
      ctx.onProgress?.({ progress: 3, total: 3, message: "last" });
      return { output: "done" };
    },
  });
  const seen: [string, unknown][] = [];
  const registry = new ToolRegistry([spec]);
  const [outcome] = await dispatchToolCalls([call("slow", {}, "c1")], {
    registry,
    ctx: context(),
    onProgress: (reported, update) => seen.push([reported.id, update]),
  });
  assert.equal(outcome!.output, "done");
  assert.deepEqual(seen, [["c1", { progress: 1, total: 3 }], ["c1", {
    progress: 3,
    total: 3,
    message: "last",
  }]]);
});
