import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { fixture } from "./_fixture.ts";

Deno.test("loadConfig() reads [tools] web_fetch_allow_private from the user config only", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[tools]\nweb_fetch_allow_private = ["localhost:8080"]\n`);
  const user = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(user.tools.webFetchAllowPrivate, ["localhost:8080"]);
  assert.deepEqual(user.warnings, []);
  const project = join(fx.workspace, "reasonix.toml");
  await fx.write(project, `[tools]\nweb_fetch_allow_private = ["169.254.169.254"]\n`);
  const both = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(both.tools.webFetchAllowPrivate, ["localhost:8080"]);
  assert.deepEqual(both.warnings.map((w) => [w.file, w.line]), [[project, 2]]);
  assert.match(
    both.warnings[0]!.message,
    /"tools\.web_fetch_allow_private" in a project file may only tighten your own settings and is ignored/,
  );
});
