/**
 * The archive stays bounded: the newest files within ARCHIVE_LIMITS (count and bytes) stay, the oldest
 * go, and only regular files named like an archive are ever touched.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARCHIVE_LIMITS, archiveName, pruneArchive, tryArchive } from "../../src/session/archive.ts";

function at(minute: number): Date {
  return new Date(Date.UTC(2026, 0, 1, 0, minute));
}

async function seed(dir: string, minutes: number[], size = 10): Promise<string[]> {
  const names = minutes.map((minute) => archiveName(at(minute)));
  for (const name of names) await Deno.writeTextFile(join(dir, name), "x".repeat(size));
  return names;
}

async function listed(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("pruneArchive() keeps the newest files within the count and leaves other files alone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const names = await seed(dir, [1, 2, 3, 4, 5, 6]);
    await Deno.writeTextFile(join(dir, "notes.txt"), "mine");
    const outside = await Deno.makeTempFile();
    await Deno.symlink(outside, join(dir, archiveName(at(0))));
    const removed = await pruneArchive(dir, names[5]!, { files: 3, bytes: 1_000_000 });
    assert.deepEqual(removed, [names[2], names[1], names[0]]);
    assert.deepEqual(await listed(dir), [archiveName(at(0)), ...names.slice(3), "notes.txt"].sort());
    assert.ok((await Deno.stat(outside)).isFile, "a symlink's target is never touched");
    await Deno.remove(outside);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pruneArchive() keeps the newest files within the bytes, and always the file just written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const names = await seed(dir, [1, 2, 3, 4], 100);
    assert.deepEqual(await pruneArchive(dir, names[3]!, { files: 100, bytes: 250 }), [names[1], names[0]]);
    assert.deepEqual(await pruneArchive(dir, names[3]!, { files: 0, bytes: 0 }), [names[2]]);
    assert.deepEqual(await listed(dir), [names[3]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tryArchive() prunes after each write: the archive holds at most ARCHIVE_LIMITS.files files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const minutes = Array.from({ length: ARCHIVE_LIMITS.files }, (_, i) => i + 1);
    const names = await seed(dir, minutes);
    const warnings: string[] = [];
    const later = new Date(Date.UTC(2026, 1, 1));
    const message = { role: "user" as const, content: "hello" };
    const file = await tryArchive(
      dir,
      { session: "s", at: later, messages: [message] },
      (w) => warnings.push(w),
    );
    assert.equal(file, join(dir, archiveName(later)));
    const now = await listed(dir);
    assert.equal(now.length, ARCHIVE_LIMITS.files);
    assert.ok(!now.includes(names[0]!), "the oldest went");
    assert.ok(now.includes(archiveName(later)) && now.includes(names[1]!));
    assert.deepEqual(warnings, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
