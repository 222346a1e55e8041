import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/lib/atomic_fs.ts";

async function tempDir(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix_atomic_" }));
}

Deno.test("writeFileAtomic() writes strings and bytes and leaves no temp file", async () => {
  const dir = await tempDir();
  try {
    await writeFileAtomic(join(dir, "a.txt"), "hello\n");
    await writeFileAtomic(join(dir, "b.bin"), new Uint8Array([0, 1, 2]));
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "hello\n");
    assert.deepEqual(await Deno.readFile(join(dir, "b.bin")), new Uint8Array([0, 1, 2]));
    const names = (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort();
    assert.deepEqual(names, ["a.txt", "b.bin"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic() replaces an existing file and keeps its mode", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "run.sh");
    await Deno.writeTextFile(path, "old");
    await Deno.chmod(path, 0o750);
    await writeFileAtomic(path, "new", { mode: 0o600 });
    assert.equal(await Deno.readTextFile(path), "new");
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o750);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic() uses the given mode for a new file", async () => {
  const dir = await tempDir();
  try {
    await writeFileAtomic(join(dir, "key"), "k", { mode: 0o600 });
    assert.equal((await Deno.stat(join(dir, "key"))).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic() creates parent directories only when asked", async () => {
  const dir = await tempDir();
  try {
    await assert.rejects(writeFileAtomic(join(dir, "x/y/z.txt"), "z"), Deno.errors.NotFound);
    await writeFileAtomic(join(dir, "x/y/z.txt"), "z", { mkdirs: true });
    assert.equal(await Deno.readTextFile(join(dir, "x/y/z.txt")), "z");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic() removes its temp file when the rename fails", async () => {
  const dir = await tempDir();
  try {
    await Deno.mkdir(join(dir, "target"));
    await Deno.writeTextFile(join(dir, "target/inner"), "keep");
    await assert.rejects(writeFileAtomic(join(dir, "target"), "data"));
    const names = (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name);
    assert.deepEqual(names, ["target"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic() with staged makes its temp file in .staging and keeps the target's mode", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const target = join(dir, "trust.json");
    await writeFileAtomic(target, "{}\n", { mode: 0o600, staged: true });
    await writeFileAtomic(target, '{"a":1}\n', { staged: true });
    assert.equal(await Deno.readTextFile(target), '{"a":1}\n');
    if (Deno.build.os !== "windows") assert.equal((await Deno.stat(target)).mode! & 0o777, 0o600);
    const names = (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort();
    assert.deepEqual(names, [".staging", "trust.json"]);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(join(dir, ".staging"))), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
