import assert from "node:assert/strict";
import { processEnv, resolvePaths } from "../../src/config/paths.ts";

Deno.test("resolvePaths() defaults to ~/.reasonix with the legacy files", () => {
  const paths = resolvePaths({ HOME: "/u" }, "linux");
  assert.deepEqual(paths, {
    userHome: "/u",
    home: "/u/.reasonix",
    stateHome: "/u/.reasonix",
    globalConfigFile: "/u/.reasonix/config.toml",
    envFile: "/u/.reasonix/.env",
    legacyConfigFiles: ["/u/.config/reasonix/config.toml", "/u/.reasonix/reasonix.toml"],
    sessionsDir: "/u/.reasonix/sessions",
    trustFile: "/u/.reasonix/trust.json",
    mcpAuthDir: "/u/.reasonix/mcp-auth",
    configWarningsFile: "/u/.reasonix/config-warnings.json",
    cacheDir: "/u/.cache/reasonix",
    selfContained: false,
  });
});

Deno.test("resolvePaths() lists the Application Support legacy file on darwin", () => {
  const paths = resolvePaths({ HOME: "/Users/a" }, "darwin");
  assert.deepEqual(paths.legacyConfigFiles, [
    "/Users/a/.config/reasonix/config.toml",
    "/Users/a/Library/Application Support/reasonix/config.toml",
    "/Users/a/.reasonix/reasonix.toml",
  ]);
  assert.equal(paths.cacheDir, "/Users/a/Library/Caches/reasonix");
});

Deno.test("resolvePaths() with REASONIX_HOME is self-contained", () => {
  const paths = resolvePaths({ HOME: "/u", REASONIX_HOME: "/r" }, "linux");
  assert.equal(paths.home, "/r");
  assert.equal(paths.selfContained, true);
  assert.deepEqual(paths.legacyConfigFiles, []);
  assert.equal(paths.globalConfigFile, "/r/config.toml");
  assert.equal(paths.envFile, "/r/.env");
  assert.equal(paths.cacheDir, "/r/cache");
  assert.equal(paths.sessionsDir, "/r/sessions");
});

Deno.test("resolvePaths() puts state under REASONIX_STATE_HOME and cache under REASONIX_CACHE_HOME", () => {
  const paths = resolvePaths({ HOME: "/u", REASONIX_STATE_HOME: "/s", REASONIX_CACHE_HOME: "/c" }, "linux");
  assert.equal(paths.home, "/u/.reasonix");
  assert.equal(paths.stateHome, "/s");
  assert.equal(paths.sessionsDir, "/s/sessions");
  assert.equal(paths.configWarningsFile, "/s/config-warnings.json");
  assert.equal(paths.trustFile, "/u/.reasonix/trust.json");
  assert.equal(paths.cacheDir, "/c");
});

Deno.test("resolvePaths() uses %APPDATA%\\reasonix on windows", () => {
  const paths = resolvePaths(
    { USERPROFILE: "C:\\Users\\a", APPDATA: "C:\\Users\\a\\AppData\\Roaming" },
    "windows",
  );
  assert.equal(paths.home, "C:\\Users\\a\\AppData\\Roaming\\reasonix");
  assert.equal(paths.globalConfigFile, "C:\\Users\\a\\AppData\\Roaming\\reasonix\\config.toml");
  assert.deepEqual(paths.legacyConfigFiles, []);
});

Deno.test("processEnv() returns a snapshot, not a live view", () => {
  const env = processEnv();
  env.REASONIX_TEST_SNAPSHOT = "1";
  assert.equal(processEnv().REASONIX_TEST_SNAPSHOT, undefined);
});
