import assert from "node:assert/strict";
import { join } from "node:path";
import { builtinConfig } from "../../src/config/builtin.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { setupSandbox } from "../../src/control/sandbox_setup.ts";
import type { ResolvedConfig } from "../../src/config/types.ts";
import { BWRAP_MISSING, options, visibleTempDir } from "../sandbox/_bwrap.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";
const HOST_ENV = {
  PATH,
  GITHUB_TOKEN: "ghp-allowed",
  DATABASE_URL: "postgres://u:pw-db@h/db",
  DEEPSEEK_API_KEY: "sk-provider",
  TELEGRAM_BOT_TOKEN: "bot-token",
  PLAIN_LOOKING: "from-dotenv",
  VISIBLE: "kept",
};

async function fixture(sandbox: Partial<ResolvedConfig["sandbox"]> = {}, envAllow: string[] = []) {
  const home = await visibleTempDir("reasonix-setup-home-");
  const ws = await visibleTempDir("reasonix-setup-ws-");
  await Deno.writeTextFile(join(home, ".env"), "PLAIN_LOOKING=from-dotenv\n");
  const paths = resolvePaths({ REASONIX_HOME: home });
  const config = builtinConfig();
  Object.assign(config.sandbox, sandbox);
  config.secrets.envAllow = envAllow;
  const workspace = {
    root: ws,
    extraWritable: [],
    forbidRead: [paths.envFile],
    readOnly: [join(ws, ".git", "hooks"), join(ws, ".git", "config")],
  };
  return {
    home,
    ws,
    setup: (more: { probe?: () => Promise<{ ok: false; reason: string }> } = {}) =>
      setupSandbox({ config, paths, env: HOST_ENV, workspace, ...more }),
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true });
      await Deno.remove(ws, { recursive: true });
    },
  };
}

function withoutEnv(ws: string) {
  const { env: _env, ...rest } = options(ws);
  return rest;
}

Deno.test({
  name: "setupSandbox() strips provider keys, bot tokens and every .env name from bash's environment",
  ignore: BWRAP_MISSING,
  async fn() {
    await using fx = await fixture();
    const { sandbox, tempDir, warning } = await fx.setup();
    assert.equal(warning, undefined);
    assert.equal(sandbox.name, "bubblewrap");
    const run = await sandbox.runShell("env", withoutEnv(fx.ws));
    assert.doesNotMatch(run.output, /sk-provider|bot-token|from-dotenv|DEEPSEEK_API_KEY/);
    assert.match(run.output, /^VISIBLE=kept$/m);
    assert.match(run.output, /^TMPDIR=\/tmp$/m);
    // A masked file reads as empty, or fails outright where device nodes are off limits (user namespaces).
    const dotenv = await sandbox.runShell(`cat ${join(fx.home, ".env")} || echo failed`, withoutEnv(fx.ws));
    assert.match(dotenv.output, /^(|.*Permission denied\nfailed\n)$/);
    await tempDir.remove();
  },
});

Deno.test("setupSandbox() with bash = false runs directly, still scrubbed and with the private temp dir", async () => {
  await using fx = await fixture({ bash: false });
  const { sandbox, tempDir, warning } = await fx.setup();
  assert.equal(warning, undefined);
  assert.equal(sandbox.name, "none");
  const run = await sandbox.runShell("env", withoutEnv(fx.ws));
  assert.doesNotMatch(run.output, /sk-provider|bot-token|from-dotenv/);
  assert.match(run.output, new RegExp(`^TMPDIR=${tempDir.path}$`, "m"));
  assert.match(run.output, new RegExp(`^TEMP=${tempDir.path}$`, "m"));
  assert.ok(tempDir.path.startsWith(join(fx.home, "tmp")));
  assert.equal((await Deno.stat(tempDir.path)).mode! & 0o777, 0o700);
  await tempDir.remove();
});

Deno.test("setupSandbox() without a working OS sandbox warns once and runs unsandboxed by default", async () => {
  await using fx = await fixture();
  const { sandbox, tempDir, warning } = await fx.setup({
    probe: () => Promise.resolve({ ok: false, reason: "bubblewrap (bwrap) is not installed" }),
  });
  assert.match(warning!, /bubblewrap \(bwrap\) is not installed; bash runs UNSANDBOXED/);
  assert.equal((await sandbox.runShell("echo ran", withoutEnv(fx.ws))).output, "ran\n");
  await tempDir.remove();
});

Deno.test("setupSandbox() without a working OS sandbox refuses bash when [sandbox] require = true", async () => {
  await using fx = await fixture({ require: true });
  const { sandbox, tempDir, warning } = await fx.setup({
    probe: () => Promise.resolve({ ok: false, reason: "bubblewrap cannot create namespaces here" }),
  });
  assert.match(warning!, /bash is refused because \[sandbox\] require = true/);
  await assert.rejects(
    sandbox.runShell("echo ran", withoutEnv(fx.ws)),
    (error: Error & { code?: string }) =>
      error.code === "sandbox.unavailable" && /namespaces/.test(error.message),
  );
  assert.throws(() => sandbox.spawnShell!("echo ran", { cwd: fx.ws }), /require = true/);
  const helper = await sandbox.runArgv(["echo", "helper"], withoutEnv(fx.ws));
  assert.equal(helper.output, "helper\n");
  await tempDir.remove();
});

Deno.test({
  name: "setupSandbox() passes [secrets] env_allow names and keeps the workspace's .git/hooks read-only",
  ignore: BWRAP_MISSING,
  async fn() {
    await using fx = await fixture({}, ["GITHUB_TOKEN"]);
    await Deno.mkdir(join(fx.ws, ".git", "hooks"), { recursive: true });
    await Deno.writeTextFile(join(fx.ws, ".git", "config"), "[core]\n");
    const { sandbox, tempDir, summary } = await fx.setup();
    assert.deepEqual(summary.readOnly, [join(fx.ws, ".git", "hooks"), join(fx.ws, ".git", "config")]);
    const run = await sandbox.runShell(
      "env; echo evil > .git/hooks/pre-commit; echo hook=$?; echo x >> .git/config; echo config=$?",
      withoutEnv(fx.ws),
    );
    assert.match(run.output, /^GITHUB_TOKEN=ghp-allowed$/m);
    assert.doesNotMatch(run.output, /pw-db/);
    assert.match(run.output, /^hook=1$/m);
    assert.match(run.output, /^config=1$/m);
    assert.equal(await Deno.readTextFile(join(fx.ws, ".git", "config")), "[core]\n");
    await tempDir.remove();
  },
});
