import assert from "node:assert/strict";
import { join } from "node:path";
import { movePath } from "../../../src/tool/builtin/_move_path.ts";

function crossDevice(): Promise<void> {
  const error = new Error("Invalid cross-device link (os error 18)") as Error & { code: string };
  error.code = "EXDEV";
  return Promise.reject(error);
}

Deno.test("movePath renames when it can", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reasonix_move_" });
  try {
    await Deno.writeTextFile(join(dir, "a.txt"), "a");
    assert.deepEqual(await movePath(join(dir, "a.txt"), join(dir, "b.txt")), { copied: false });
    assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "a");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("movePath copies then removes a tree when rename fails with EXDEV", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reasonix_move_" });
  try {
    const from = join(dir, "pkg");
    await Deno.mkdir(join(from, "sub"), { recursive: true });
    await Deno.writeTextFile(join(from, "sub/x.txt"), "x");
    await Deno.writeTextFile(join(from, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    await Deno.chmod(join(from, "run.sh"), 0o755);
    await Deno.symlink("sub/x.txt", join(from, "link"));
    const result = await movePath(from, join(dir, "moved"), { rename: crossDevice });
    assert.deepEqual(result, { copied: true });
    assert.equal(await Deno.readTextFile(join(dir, "moved/sub/x.txt")), "x");
    assert.equal(await Deno.readLink(join(dir, "moved/link")), "sub/x.txt");
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(join(dir, "moved/run.sh"))).mode! & 0o777, 0o755);
    }
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["moved"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("movePath overwrites a file across devices and rethrows other rename errors", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reasonix_move_" });
  try {
    await Deno.writeTextFile(join(dir, "a.txt"), "new");
    await Deno.writeTextFile(join(dir, "b.txt"), "old");
    await movePath(join(dir, "a.txt"), join(dir, "b.txt"), { rename: crossDevice });
    assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "new");
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["b.txt"]);
    await assert.rejects(
      movePath(join(dir, "b.txt"), join(dir, "c.txt"), {
        rename: () => Promise.reject(new Deno.errors.PermissionDenied("denied")),
      }),
      Deno.errors.PermissionDenied,
    );
    assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "new");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
