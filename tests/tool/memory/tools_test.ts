/**
 * The memory tools on a real store, with a scripted person answering (the Controller-level tests in
 * tests/control/memory_approval_test.ts go through the real approval desk).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { MemoryAccess, MemoryAnswer, MemoryAsk } from "../../../src/tool/memory/access.ts";
import { forgetTool } from "../../../src/tool/memory/forget.ts";
import { memoryTool } from "../../../src/tool/memory/memory.ts";
import { rememberTool } from "../../../src/tool/memory/remember.ts";
import { memoryRoot, MemoryStore } from "../../../src/tool/memory/store.ts";
import { ToolError } from "../../../src/tool/tool.ts";
import { builtinRegistry } from "../../../src/tool/builtin/mod.ts";
import { buildCatalog, searchCatalog } from "../../../src/tool/catalog.ts";
import { registerMemoryTools } from "../../../src/tool/memory/mod.ts";
import { makeTestWorkspace, type TestWorkspace } from "../_tool_context.ts";

interface Fixture extends AsyncDisposable {
  ws: TestWorkspace;
  store: MemoryStore;
  asks: MemoryAsk[];
  notes: string[];
  answer: MemoryAnswer;
}

async function fixture(): Promise<Fixture> {
  const ws = await makeTestWorkspace();
  const store = new MemoryStore({ root: memoryRoot(join(ws.outside, "state")), workspace: ws.root });
  const fx = {
    ws,
    store,
    asks: [] as MemoryAsk[],
    notes: [] as string[],
    answer: { kind: "approved" } as MemoryAnswer,
  };
  const memory: MemoryAccess = {
    store,
    interactive: true,
    confirm: (ask) => {
      fx.asks.push(ask);
      return Promise.resolve(fx.answer);
    },
    changed: (note) => fx.notes.push(note),
    now: () => new Date("2026-12-01T00:00:00Z"),
  };
  ws.ctx.memory = memory;
  return {
    ...fx,
    get answer() {
      return fx.answer;
    },
    set answer(value) {
      fx.answer = value;
    },
    [Symbol.asyncDispose]: () => ws[Symbol.asyncDispose](),
  };
}

const FACT = { description: "Test command", body: "Run deno task test." };

Deno.test("remember, forget and memory restore keep every revision and tell the session", async () => {
  await using fx = await fixture();
  const saved = await rememberTool.execute(FACT, fx.ws.ctx);
  assert.match(saved.output, /^Memory saved: test-command \(id (m-[0-9a-f]{12}), project, revision 1\)$/);
  const id = /id (m-[0-9a-f]+)/.exec(saved.output)![1]!;
  assert.equal(
    (await rememberTool.execute(FACT, fx.ws.ctx)).output,
    "Already remembered as given: nothing changed",
  );
  assert.equal(fx.asks.length, 0);
  await forgetTool.execute({ name: "test-command" }, fx.ws.ctx);
  assert.equal(fx.asks.length, 1);
  assert.deepEqual(await fx.store.list(), []);
  const restored = await memoryTool.execute({ operation: "restore", name: id, revision: 1 }, fx.ws.ctx);
  assert.match(
    restored.output,
    /^Memory restored \(approved by the user\): test-command \(id m-[0-9a-f]+, project, revision 3\)$/,
  );
  const history = await memoryTool.execute({ operation: "history", name: "test-command" }, fx.ws.ctx);
  assert.deepEqual(history.output.split("\n").map((line) => line.replace(/ \(.*?\)/, "")), [
    "revision 1: Test command",
    "revision 2: Test command",
    "revision 3: Test command",
  ]);
  assert.deepEqual(fx.notes.map((note) => note.split(":")[0]), [
    "Memory saved",
    "Memory forgotten",
    "Memory restored",
  ]);
});

Deno.test("memory restore refuses to overwrite an active fact or take a name another fact holds", async () => {
  await using fx = await fixture();
  const id = /id (m-[0-9a-f]+)/.exec((await rememberTool.execute(FACT, fx.ws.ctx)).output)![1]!;
  await assert.rejects(
    () => memoryTool.execute({ operation: "restore", name: id, revision: 1 }, fx.ws.ctx),
    (error) => error instanceof ToolError && error.code === "memory.refused",
  );
  await forgetTool.execute({ name: id }, fx.ws.ctx);
  await rememberTool.execute(
    { name: "test-command", description: "Another", body: "Something else." },
    fx.ws.ctx,
  );
  await assert.rejects(
    () => memoryTool.execute({ operation: "restore", name: id, revision: 1 }, fx.ws.ctx),
    (error) => error instanceof ToolError && error.code === "memory.collision",
  );
  await assert.rejects(
    () => memoryTool.execute({ operation: "restore", name: id, revision: 2 }, fx.ws.ctx),
    (error) => error instanceof ToolError && error.code === "memory.unknown",
    "a forgotten revision is no restore point",
  );
});

Deno.test("a declined change writes nothing; an unanswerable one fails closed", async () => {
  await using fx = await fixture();
  fx.answer = { kind: "declined", reason: "not now" };
  await assert.rejects(
    () => rememberTool.execute({ ...FACT, scope: "global" }, fx.ws.ctx),
    (error) =>
      error instanceof ToolError &&
      error.message === `The user declined: memory not saved "test-command"; they said: "not now"`,
  );
  fx.answer = { kind: "unanswerable" };
  await assert.rejects(
    () => rememberTool.execute({ ...FACT, scope: "global" }, fx.ws.ctx),
    (error) => error instanceof ToolError && error.code === "memory.needs_approval",
  );
  assert.deepEqual(await fx.store.list(), []);
  assert.deepEqual(fx.notes, []);
});

Deno.test("memory tools fail closed where the context has no memory (a subagent)", async () => {
  await using ws = await makeTestWorkspace();
  for (
    const run of [
      () => rememberTool.execute(FACT, ws.ctx),
      () => forgetTool.execute({ name: "x" }, ws.ctx),
      () => memoryTool.execute({ operation: "list" }, ws.ctx),
    ]
  ) {
    await assert.rejects(run, (error) => error instanceof ToolError && error.code === "memory.unavailable");
  }
});

Deno.test("remember refuses oversized facts outright", async () => {
  await using fx = await fixture();
  await assert.rejects(
    () => rememberTool.execute({ description: "big", body: "x".repeat(5000) }, fx.ws.ctx),
    (error) => error instanceof ToolError && error.code === "memory.too_large",
  );
});

Deno.test("use_capability search finds the memory tools by what a model would ask for", () => {
  const registry = builtinRegistry();
  registerMemoryTools(registry);
  const catalog = buildCatalog(registry);
  const first = (query: string) => searchCatalog(catalog, query, 3)[0]?.id;
  assert.equal(first("remember a fact for later"), "tool:remember");
  assert.equal(first("save a note for next session"), "tool:remember");
  assert.equal(first("forget"), "tool:forget");
  assert.equal(first("memory"), "tool:memory");
  assert.deepEqual(
    registry.proxiedNames().filter((name) => ["forget", "memory", "remember"].includes(name)),
    [
      "forget",
      "memory",
      "remember",
    ],
  );
});

Deno.test("remember by id updates a global fact without naming its scope, and keeps the scope", async () => {
  await using fx = await fixture();
  const saved = await rememberTool.execute({ ...FACT, scope: "global" }, fx.ws.ctx);
  const id = /id (m-[0-9a-f]+)/.exec(saved.output)![1]!;
  await rememberTool.execute({ id, description: "Test command", body: "Run deno task test -A." }, fx.ws.ctx);
  assert.deepEqual((await fx.store.list("global")).map((fact) => [fact.id, fact.revision]), [[id, 2]]);
  assert.deepEqual(await fx.store.list("project"), []);
  assert.match(fx.asks[1]!.reasons.join("; "), /it changes "test-command" \(revision 1\); global facts/);
});
