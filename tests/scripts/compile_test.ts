import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { parseArgs, runtimeMissingMessage, TARGETS, writeEntry } from "../../scripts/compile.ts";

const COMPILE_TS = resolve(import.meta.dirname!, "../../scripts/compile.ts");
const DENO_JSON = resolve(import.meta.dirname!, "../../deno.json");

Deno.test("compile targets the six platforms and rejects unknown ones", () => {
  assert.equal(TARGETS.length, 6);
  assert.deepEqual(parseArgs(["--target", "aarch64-apple-darwin"]).targets, ["aarch64-apple-darwin"]);
  assert.throws(() => parseArgs(["--target", "riscv64-unknown-linux-gnu"]), /Unknown target/);
});

// Runs up to Deno's runtime download: an empty download cache and a proxy that refuses connections
// make the denort download fail at once, here and on a networked machine alike.
Deno.test("compile stops with one sentence naming DENORT_BIN when denort cannot be downloaded", async () => {
  const out = await Deno.makeTempDir({ prefix: "reasonix-compile-" });
  const target = "x86_64-unknown-linux-gnu";
  try {
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      HTTPS_PROXY: "http://127.0.0.1:9",
      NO_COLOR: "1",
    };
    delete env.DENORT_BIN;
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "-A", COMPILE_TS, "--target", target, "--out-dir", out],
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(240_000),
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 1, stderr);
    assert.equal(stderr.trim(), runtimeMissingMessage(target));
    assert.match(stderr, /DENORT_BIN/);
    assert.match(stderr, /\$DENO_DIR\/dl\/release\/v\d/);
    assert.deepEqual([...Deno.readDirSync(join(out, target))], []);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("the generated entry stamps commit, date and target into `reasonix version`", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reasonix-entry-" });
  try {
    const entry = await writeEntry({ target: "aarch64-apple-darwin", commit: "0123abc", dir });
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "-A", "--config", DENO_JSON, entry, "version", "--json"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    const info = JSON.parse(new TextDecoder().decode(run.stdout));
    assert.equal(info.git_commit, "0123abc");
    assert.equal(info.build_target, "aarch64-apple-darwin");
    assert.match(info.build_time_utc, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
