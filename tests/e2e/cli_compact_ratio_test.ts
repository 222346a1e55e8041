/** `reasonix config compact-ratio [--local] [VALUE]` through the real CLI. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("config compact-ratio prints, sets the user's config, --local the project's, refuses outside 0.65-0.85", async () => {
  const home = await Deno.makeTempDir();
  const ws = await makeWorkspace({ "reasonix.toml": "# project\n" });
  try {
    const shown = await runCli(["config", "compact-ratio"], { home, cwd: ws });
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout.trim(), "0.8");
    const set = await runCli(["config", "compact-ratio", "70"], { home, cwd: ws });
    assert.equal(set.code, 0, set.stderr);
    assert.match(await Deno.readTextFile(join(home, "config.toml")), /compact_ratio = 0\.7\b/);
    assert.equal((await runCli(["config", "compact-ratio"], { home, cwd: ws })).stdout.trim(), "0.7");
    const local = await runCli(["config", "compact-ratio", "--local", "0.75"], { home, cwd: ws });
    assert.equal(local.code, 0, local.stderr);
    assert.match(
      await Deno.readTextFile(join(ws, "reasonix.toml")),
      /^# project\n[\s\S]*compact_ratio = 0\.75/,
    );
    assert.equal((await runCli(["config", "compact-ratio"], { home, cwd: ws })).stdout.trim(), "0.75");
    const bad = await runCli(["config", "compact-ratio", "0.9"], { home, cwd: ws });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /0\.65 to 0\.85/);
  } finally {
    await removeAll(home, ws);
  }
});
