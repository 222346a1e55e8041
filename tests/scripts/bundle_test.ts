import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { VERSION } from "../../src/lib/version.ts";

const ROOT = resolve(import.meta.dirname!, "../..");

/** The `bundle` task of deno.json, with its output moved into `dir`; returns the args and the entry. */
async function bundleTask(dir: string): Promise<{ args: string[]; entry: string }> {
  const tasks = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).tasks;
  const words: string[] = tasks.bundle.split(/\s+/).slice(1);
  let entry = "";
  for (let i = 0; i < words.length; i++) {
    if (words[i] === "-o" || words[i] === "--output") words[i + 1] = entry = join(dir, "reasonix.js");
    if (words[i] === "--outdir") [words[i + 1], entry] = [dir, join(dir, "main.js")];
  }
  assert.ok(entry, `cannot find the output of the bundle task: ${tasks.bundle}`);
  return { args: words, entry };
}

Deno.test("`deno task bundle` builds one program that runs with deno run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reasonix-bundle-" });
  try {
    const { args, entry } = await bundleTask(dir);
    const bundle = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    assert.ok(bundle.success, new TextDecoder().decode(bundle.stderr));
    const run = (...argv: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", "-A", entry, ...argv],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
    const version = await run("--version");
    assert.equal(new TextDecoder().decode(version.stdout), `reasonix v${VERSION}\n`);
    const completion = await run("completion", "bash");
    assert.equal(completion.code, 0);
    assert.match(new TextDecoder().decode(completion.stdout), / upgrade update completion /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
