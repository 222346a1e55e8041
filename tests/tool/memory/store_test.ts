import assert from "node:assert/strict";
import { join } from "node:path";
import { type Fact, formatFact, parseFact } from "../../../src/tool/memory/fact.ts";
import { INDEX_FILE, memoryRoot, MemoryStore, projectMemoryDir } from "../../../src/tool/memory/store.ts";
import { ToolError } from "../../../src/tool/tool.ts";

async function tempStore(): Promise<{ store: MemoryStore; state: string } & AsyncDisposable> {
  const state = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix_memory_" }));
  const store = new MemoryStore({ root: memoryRoot(state), workspace: join(state, "ws") });
  return { store, state, [Symbol.asyncDispose]: () => Deno.remove(state, { recursive: true }) };
}

function fact(overrides: Partial<Fact> = {}): Fact {
  return {
    id: "m-0123456789ab",
    name: "test-command",
    description: "How to run the tests",
    type: "project",
    scope: "project",
    revision: 1,
    created: "2026-01-01T00:00:00.000Z",
    updated: "2026-01-01T00:00:00.000Z",
    status: "active",
    body: "Run `deno task test`.",
    ...overrides,
  };
}

Deno.test("formatFact() and parseFact() round-trip, and no value can open another key", () => {
  const tricky = fact({ description: 'x"\nstatus: "forgotten', body: "---\nid: m-evil\n---" });
  assert.deepEqual(parseFact(formatFact(tricky)), tricky);
  assert.equal(parseFact('---\nid: "../../etc"\n---\n\nbody'), null);
});

Deno.test("MemoryStore.write() keeps every revision, an index, and the latest as the fact file", async () => {
  await using fx = await tempStore();
  const first = fact();
  await fx.store.write(first, null);
  const second = {
    ...first,
    revision: 2,
    body: "Run `deno task test` with -A.",
    updated: "2026-02-01T00:00:00.000Z",
  };
  await fx.store.write(second, first);
  assert.deepEqual(await fx.store.list(), [second]);
  assert.deepEqual((await fx.store.revisions(first.id, "project")).map((f) => f.body), [
    first.body,
    second.body,
  ]);
  const dir = projectMemoryDir(memoryRoot(fx.state), join(fx.state, "ws"));
  assert.equal(fx.store.dirOf("project"), dir);
  const index = await Deno.readTextFile(join(dir, INDEX_FILE));
  assert.equal(index, `# Memory (project)\n\n- [test-command](${first.id}.md) — How to run the tests\n`);
  assert.equal((await Deno.stat(join(dir, `${first.id}.md`))).mode! & 0o777, 0o600);
});

Deno.test("MemoryStore.write() refuses a stale previous revision and never overwrites a revision", async () => {
  await using fx = await tempStore();
  const first = fact();
  await fx.store.write(first, null);
  await assert.rejects(() => fx.store.write({ ...first, revision: 2 }, null), hasCode("memory.conflict"));
  await assert.rejects(() => fx.store.write(first, null), hasCode("memory.conflict"));
  // Another process wrote revision 2 meanwhile: its file is a collision, not overwritten.
  const revisionFile = join(fx.store.dirOf("project"), "history", first.id, "2.md");
  await Deno.writeTextFile(revisionFile, "someone else's");
  await assert.rejects(() => fx.store.write({ ...first, revision: 2 }, first), hasCode("memory.collision"));
  assert.equal(await Deno.readTextFile(revisionFile), "someone else's");
  assert.deepEqual(await fx.store.list(), [first]);
});

Deno.test("MemoryStore.write() of a forgotten fact drops it from the list and the index, keeping history", async () => {
  await using fx = await tempStore();
  const first = fact();
  await fx.store.write(first, null);
  await fx.store.write({ ...first, revision: 2, status: "forgotten" }, first);
  assert.deepEqual(await fx.store.list(), []);
  assert.equal((await fx.store.latest(first.id, "project"))?.status, "forgotten");
  const index = await Deno.readTextFile(join(fx.store.dirOf("project"), INDEX_FILE));
  assert.ok(!index.includes(first.id));
});

Deno.test("MemoryStore refuses symlinks in its directories and files, reading or writing", async () => {
  await using fx = await tempStore();
  const elsewhere = join(fx.state, "elsewhere");
  await Deno.mkdir(elsewhere);
  await Deno.mkdir(memoryRoot(fx.state));
  await Deno.symlink(elsewhere, join(memoryRoot(fx.state), "global"));
  await assert.rejects(() => fx.store.write(fact({ scope: "global" }), null), hasCode("memory.unsafe_path"));
  await assert.rejects(() => fx.store.list("global"), hasCode("memory.unsafe_path"));
  assert.deepEqual([...Deno.readDirSync(elsewhere)], []);
  // A planted fact file that is a symlink is never read, nor written through.
  const first = fact();
  await fx.store.write(first, null);
  const target = join(fx.state, "target.md");
  await Deno.writeTextFile(target, formatFact(fact({ id: "m-ffffffffffff" })));
  await Deno.symlink(target, join(fx.store.dirOf("project"), "m-ffffffffffff.md"));
  assert.deepEqual((await fx.store.list("project")).map((f) => f.id), [first.id]);
  await Deno.remove(join(fx.store.dirOf("project"), `${first.id}.md`));
  await Deno.symlink(target, join(fx.store.dirOf("project"), `${first.id}.md`));
  await assert.rejects(() => fx.store.write({ ...first, revision: 2 }, first), hasCode("memory.unsafe_path"));
  assert.match(await Deno.readTextFile(target), /m-ffffffffffff/);
});

Deno.test("MemoryStore refuses ids that are not its own, so no name escapes the directory", async () => {
  await using fx = await tempStore();
  await assert.rejects(() => fx.store.revisions("../../etc", "project"), hasCode("memory.invalid_id"));
  await assert.rejects(() => fx.store.write(fact({ id: "m-../x" }), null), hasCode("memory.invalid_id"));
  // A file that claims another fact's id is skipped.
  await fx.store.write(fact(), null);
  const dir = fx.store.dirOf("project");
  await Deno.writeTextFile(join(dir, "m-aaaaaaaaaaaa.md"), formatFact(fact({ id: "m-bbbbbbbbbbbb" })));
  assert.deepEqual((await fx.store.list()).map((f) => f.id), ["m-0123456789ab"]);
});

Deno.test("projectMemoryDir() keys the project by its absolute path", () => {
  const a = projectMemoryDir("/s/memory", "/home/u/app");
  assert.match(a, /^\/s\/memory\/projects\/app-[0-9a-f]{12}$/);
  assert.notEqual(a, projectMemoryDir("/s/memory", "/home/v/app"));
});

function hasCode(code: string) {
  return (error: unknown) => error instanceof ToolError && error.code === code;
}
