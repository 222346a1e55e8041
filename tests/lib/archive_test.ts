import assert from "node:assert/strict";
import { join } from "node:path";
import { readFromArchive } from "../../src/lib/archive.ts";

async function tool(command: string, args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(command, { args, cwd, stdout: "null", stderr: "piped" }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test("one file is read back from archives written by system tar and zip", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reasonix-archive-" });
  try {
    const binary = new Uint8Array(70_000).map((_, i) => (i * 7919) % 251);
    await Deno.writeFile(join(dir, "reasonix"), binary);
    await Deno.writeTextFile(join(dir, "README.md"), "readme\n".repeat(100));
    await tool("tar", ["-czf", "a.tar.gz", "README.md", "reasonix"], dir);
    await tool("zip", ["-q", "deflated.zip", "README.md", "reasonix"], dir);
    await tool("zip", ["-q", "-0", "stored.zip", "reasonix"], dir);
    for (const name of ["a.tar.gz", "deflated.zip", "stored.zip"]) {
      const archive = await Deno.readFile(join(dir, name));
      assert.deepEqual(await readFromArchive(archive, { archiveName: name, file: "reasonix" }), binary, name);
      assert.equal(await readFromArchive(archive, { archiveName: name, file: "absent" }), undefined, name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a file that is not a zip archive is refused", async () => {
  await assert.rejects(
    readFromArchive(new Uint8Array(100), { archiveName: "x.zip", file: "reasonix" }),
    /no end of central directory/,
  );
});
