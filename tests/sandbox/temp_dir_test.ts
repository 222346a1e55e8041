import assert from "node:assert/strict";
import { join } from "node:path";
import { SessionTempDir, tempRoot } from "../../src/sandbox/temp_dir.ts";

Deno.test("SessionTempDir.create() makes a private dir under the state home, rotate() replaces it", async () => {
  const state = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-state-" }));
  try {
    const first = await SessionTempDir.create(tempRoot(state));
    const second = await SessionTempDir.create(tempRoot(state));
    assert.notEqual(first.path, second.path);
    assert.ok(first.path.startsWith(join(state, "tmp") + "/"));
    assert.equal((await Deno.stat(first.path)).mode! & 0o777, 0o700);
    await Deno.writeTextFile(join(first.path, "x"), "1");
    const old = first.path;
    await first.rotate();
    assert.notEqual(first.path, old);
    await assert.rejects(Deno.stat(old), Deno.errors.NotFound);
    await first.remove();
    await first.remove();
    await assert.rejects(Deno.stat(first.path), Deno.errors.NotFound);
    await second.remove();
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});
