import assert from "node:assert/strict";
import { join } from "node:path";
import { HISTORY_FILE, InputHistory } from "../../src/session/input_history.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "reasonix-history-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("history persists across instances for the same workspace", async () => {
  await withDir(async (dir) => {
    const first = new InputHistory(join(dir, "sessions"), "/projects/alpha");
    await first.load();
    await first.add("fix the build");
    await first.add("你好，解释一下");
    const second = new InputHistory(join(dir, "sessions"), "/projects/alpha");
    assert.deepEqual(await second.load(), ["fix the build", "你好，解释一下"]);
  });
});

Deno.test("history is kept per workspace", async () => {
  await withDir(async (dir) => {
    const alpha = new InputHistory(dir, "/projects/alpha");
    const beta = new InputHistory(dir, "/projects/beta");
    assert.notEqual(alpha.file, beta.file);
    await alpha.add("only alpha");
    assert.deepEqual(await beta.load(), []);
  });
});

Deno.test("blank lines and consecutive repeats are skipped, old lines drop past the limit", async () => {
  await withDir(async (dir) => {
    const history = new InputHistory(dir, "/w", 3);
    for (const line of ["a", "a", "  ", "b", "c", "d"]) await history.add(line);
    assert.deepEqual(history.entries(), ["b", "c", "d"]);
    assert.deepEqual(await new InputHistory(dir, "/w", 3).load(), ["b", "c", "d"]);
  });
});

Deno.test("a corrupt history file starts empty instead of failing", async () => {
  await withDir(async (dir) => {
    const history = new InputHistory(dir, "/w");
    await Deno.mkdir(join(history.file, ".."), { recursive: true });
    await Deno.writeTextFile(history.file, "{not json");
    assert.deepEqual(await history.load(), []);
    assert.deepEqual(history.file.endsWith(HISTORY_FILE), true);
  });
});
