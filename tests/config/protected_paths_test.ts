import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { protectedPaths } from "../../src/config/protected_paths.ts";
import { fixture } from "./_fixture.ts";

Deno.test("protectedPaths() hides the whole Reasonix home, its state and credential stores", async () => {
  await using fx = await fixture({ REASONIX_STATE_HOME: "$ROOT/state" });
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const { hidden, readOnly } = protectedPaths(config, fx.paths, [fx.workspace]);
  for (const path of [fx.paths.home, fx.paths.stateHome, fx.paths.envFile]) assert.ok(hidden.includes(path));
  for (
    const entry of [".ssh", ".aws", ".netrc", ".docker/config.json", ".kube", ".gnupg", ".config/gcloud"]
  ) {
    assert.ok(hidden.includes(join(fx.userHome, entry)), entry);
  }
  assert.deepEqual(readOnly, [join(fx.workspace, ".git/hooks"), join(fx.workspace, ".git/config")]);
});

Deno.test("the user config may switch the credential stores and the git protection off", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `[secrets]\nprotect_sensitive_files = false\nenv_allow = ["GITHUB_TOKEN"]\n[sandbox]\nprotect_git = false\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.secrets, { protectSensitiveFiles: false, envAllow: ["GITHUB_TOKEN"] });
  const { hidden, readOnly } = protectedPaths(config, fx.paths, [fx.workspace]);
  assert.ok(!hidden.includes(join(fx.userHome, ".ssh")));
  assert.ok(hidden.includes(fx.paths.home));
  assert.deepEqual(readOnly, []);
});

Deno.test("a project file cannot switch the credential stores or the git protection off", async () => {
  await using fx = await fixture();
  await fx.write(
    join(fx.workspace, "reasonix.toml"),
    `[secrets]\nprotect_sensitive_files = false\nenv_allow = ["AWS_SECRET_ACCESS_KEY"]\n[sandbox]\nprotect_git = false\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.secrets, { protectSensitiveFiles: true, envAllow: [] });
  assert.equal(config.sandbox.protectGit, true);
  const warned = config.warnings.map((w) => w.message).join("\n");
  for (const key of ["secrets.protect_sensitive_files", "secrets.env_allow", "sandbox.protect_git"]) {
    assert.match(warned, new RegExp(key.replace(".", "\\.")));
  }
});
