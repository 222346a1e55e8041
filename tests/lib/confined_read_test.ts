import assert from "node:assert/strict";
import { join } from "node:path";
import { readConfined } from "../../src/lib/confined_read.ts";

Deno.test("readConfined() reads inside the roots and skips what is missing, too large or not a file", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-confined-" }));
  try {
    await Deno.writeTextFile(join(root, "a.md"), "alpha");
    const guard = { roots: [root], hidden: [join(root, "secret")] };
    const read = await readConfined(join(root, "a.md"), guard);
    assert.equal(read.kind === "text" && read.text, "alpha");
    assert.deepEqual(await readConfined(join(root, "none.md"), guard), { kind: "missing" });
    assert.deepEqual(await readConfined(join(root, "a.md"), { ...guard, maxBytes: 3 }), {
      kind: "skipped",
      reason: "too large",
    });
    assert.deepEqual(await readConfined(root, guard), { kind: "skipped", reason: "not a file" });
    await Deno.mkdir(join(root, "secret"));
    await Deno.writeTextFile(join(root, "secret/k"), "key");
    await Deno.symlink("secret/k", join(root, "link.md"));
    assert.deepEqual(await readConfined(join(root, "link.md"), guard), {
      kind: "refused",
      real: join(root, "secret/k"),
      reason: "hidden",
    });
    await Deno.symlink("loop.md", join(root, "loop.md"));
    assert.deepEqual(await readConfined(join(root, "loop.md"), guard), { kind: "missing" });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
