import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { fixture } from "./_fixture.ts";

Deno.test("loadConfig() defaults [sandbox] to bash on, require off and network unset", async () => {
  await using fx = await fixture();
  const { sandbox } = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(sandbox.bash, true);
  assert.equal(sandbox.require, false);
  assert.equal(sandbox.network, undefined);
});

Deno.test("loadConfig() lets the user turn bash and require either way", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[sandbox]\nbash = false\nrequire = true\n`);
  const { sandbox, warnings } = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(sandbox.bash, false);
  assert.equal(sandbox.require, true);
  assert.deepEqual(warnings, []);
});

Deno.test("loadConfig() ignores a project that disarms the sandbox, with a warning, but lets it tighten", async () => {
  await using fx = await fixture();
  const project = join(fx.workspace, "reasonix.toml");
  await fx.write(project, `[sandbox]\nbash = false\nrequire = false\n`);
  await fx.write(fx.paths.globalConfigFile, `[sandbox]\nrequire = true\n`);
  const loose = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(loose.sandbox.bash, true);
  assert.equal(loose.sandbox.require, true);
  assert.deepEqual(loose.warnings.map((w) => [w.file, w.line]), [[project, 2], [project, 3]]);
  assert.match(
    loose.warnings[0]!.message,
    /^"sandbox\.bash" in a project file may only tighten your own settings and is ignored: run `reasonix trust`/,
  );
  await fx.write(fx.paths.globalConfigFile, `[sandbox]\nbash = false\n`);
  await fx.write(project, `[sandbox]\nbash = true\nrequire = true\n`);
  const tight = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(tight.sandbox.bash, true);
  assert.equal(tight.sandbox.require, true);
});
