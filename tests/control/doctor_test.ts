import assert from "node:assert/strict";
import { join } from "node:path";
import { resolvePaths } from "../../src/config/paths.ts";
import {
  type DoctorCheck,
  formatChecks,
  projectConfigCheck,
  sandboxChecks,
} from "../../src/control/doctor.ts";
import { loadConfig } from "../../src/config/load.ts";
import { trustProjectConfig } from "../../src/config/project_trust.ts";
import { runCli } from "../support/cli.ts";
import { BWRAP_MISSING } from "../sandbox/_bwrap.ts";

async function withContext(
  toml: string,
  body: (ctx: { workspace: string; paths: ReturnType<typeof resolvePaths> }) => Promise<void>,
) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-doctor-" }));
  try {
    await Deno.mkdir(join(root, "ws"));
    await Deno.mkdir(join(root, "home"));
    await Deno.writeTextFile(join(root, "home", "config.toml"), toml);
    await Deno.writeTextFile(join(root, "home", ".env"), "A_KEY=1\nB=2\n");
    await body({ workspace: join(root, "ws"), paths: resolvePaths({ REASONIX_HOME: join(root, "home") }) });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function byName(checks: DoctorCheck[], name: string): DoctorCheck {
  return checks.find((c) => c.name === name)!;
}

const broken = () => Promise.resolve({ ok: false as const, reason: "bubblewrap (bwrap) is not installed" });

Deno.test("sandboxChecks() names a missing bubblewrap and what happens to bash instead", async () => {
  await withContext("", async (ctx) => {
    const checks = await sandboxChecks(ctx, { env: {}, runtime: "deno", os: "linux", probe: broken });
    assert.deepEqual(byName(checks, "os sandbox"), {
      name: "os sandbox",
      status: "warn",
      detail:
        "bubblewrap (bwrap) is not installed: bash runs unsandboxed (set [sandbox] require = true to refuse it)",
    });
    assert.match(
      byName(checks, "credentials").detail,
      /\.env is hidden from tools and bash; 1 provider key names and 2 names/,
    );
    assert.match(byName(checks, "deno fence").detail, /re-runs itself with --no-prompt .*--allow-write=/);
  });
});

Deno.test("sandboxChecks() says Windows has no OS sandbox, and reports require, bash = false and the fence", async () => {
  await withContext("[sandbox]\nrequire = true\nnetwork = true\n", async (ctx) => {
    const checks = await sandboxChecks(ctx, {
      env: { REASONIX_NO_FENCE: "1" },
      runtime: "deno",
      os: "windows",
    });
    assert.equal(
      byName(checks, "os sandbox").detail,
      "Windows has no OS sandbox: bash is refused ([sandbox] require = true)",
    );
    assert.equal(byName(checks, "network").status, "warn");
    assert.equal(byName(checks, "deno fence").detail, "disabled by REASONIX_NO_FENCE=1");
  });
  await withContext("[sandbox]\nbash = false\n", async (ctx) => {
    const checks = await sandboxChecks(ctx, { env: {}, runtime: "compiled", os: "linux", probe: broken });
    assert.equal(byName(checks, "os sandbox").status, "off");
    assert.match(byName(checks, "deno fence").detail, /baked in at compile time/);
    assert.match(formatChecks(checks), /^\[off \] os sandbox +disabled by \[sandbox\] bash = false/);
  });
});

Deno.test("reasonix doctor --json prints the checks", async () => {
  const home = await Deno.makeTempDir({ prefix: "reasonix-doctor-home-" });
  try {
    const run = await runCli(["doctor", "--json"], { home, cwd: home });
    assert.equal(run.code, 0, run.stderr);
    const names = JSON.parse(run.stdout).checks.map((c: DoctorCheck) => c.name);
    assert.deepEqual(names.slice(0, 6), [
      "os sandbox",
      "network",
      "web_fetch",
      "temp dir",
      "credentials",
      "deno fence",
    ]);
    for (const name of ["privileges", "writable", "hidden paths", "read-only paths", "env scrub"]) {
      assert.ok(names.includes(name), `${name} is missing from ${names}`);
    }
    const hidden = JSON.parse(run.stdout).checks.find((c: DoctorCheck) => c.name === "hidden paths");
    assert.ok(
      hidden.list.includes(join(await Deno.realPath(home), ".env")) ||
        hidden.list.includes(join(home, ".env")),
    );
    assert.deepEqual(names.slice(-2), ["project config", "config keys"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("sandboxChecks() shows the web_fetch policy: asking, refused addresses and allowed domains", async () => {
  const toml = `[permissions]\nallow = ["WebFetch(domain:docs.deno.com)", "Bash(ls)"]\n` +
    `[tools]\nweb_fetch_allow_private = ["localhost:8080"]\n`;
  await withContext(toml, async (ctx) => {
    const checks = await sandboxChecks(ctx, { env: {}, runtime: "compiled", os: "linux", probe: broken });
    assert.deepEqual(byName(checks, "web_fetch"), {
      name: "web_fetch",
      status: "warn",
      detail: "asks per domain; loopback, private, link-local and metadata addresses refused except " +
        "localhost:8080; allowed domains: docs.deno.com",
    });
  });
  await withContext("[sandbox]\nnetwork = false\n", async (ctx) => {
    const checks = await sandboxChecks(ctx, { env: {}, runtime: "compiled", os: "linux", probe: broken });
    assert.equal(byName(checks, "web_fetch").status, "off");
  });
});

Deno.test("projectConfigCheck() names an untrusted project file's ignored keys, then its trusted digest", async () => {
  await withContext("", async (ctx) => {
    const file = join(ctx.workspace, "reasonix.toml");
    await Deno.writeTextFile(file, `[permissions]\nmode = "auto"\n[sandbox]\nallow_write = ["~"]\n`);
    const untrusted = projectConfigCheck(await loadConfig({ workspace: ctx.workspace, paths: ctx.paths }));
    assert.deepEqual(untrusted, {
      name: "project config",
      status: "warn",
      detail: `${file} — not trusted: 2 keys ignored: permissions.mode, sandbox.allow_write ` +
        "(review with `reasonix trust`)",
    });
    const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
    await trustProjectConfig(ctx.paths, ctx.workspace, { file, sha256: config.project!.sha256 });
    const trusted = projectConfigCheck(await loadConfig({ workspace: ctx.workspace, paths: ctx.paths }));
    assert.equal(trusted.status, "ok");
    assert.equal(trusted.detail, `${file} — trusted (sha ${config.project!.sha256.slice(0, 12)})`);
  });
});

Deno.test({
  name:
    "sandboxChecks() measures the live bubblewrap sandbox: no capability, seccomp on, and warns about root",
  ignore: BWRAP_MISSING,
  async fn() {
    await withContext('[secrets]\nenv_allow = ["GITHUB_TOKEN"]\n', async (ctx) => {
      const checks = await sandboxChecks(ctx, { env: {}, runtime: "deno", os: "linux", uid: 0 });
      assert.deepEqual(byName(checks, "privileges").status, "ok", byName(checks, "privileges").detail);
      assert.match(
        byName(checks, "privileges").detail,
        /^inside bash: capabilities none \(bounding set none\), seccomp filter on \(refuses mount, .*no_new_privs on/,
      );
      assert.match(byName(checks, "root").detail, /uid 0.*no capability.*act as root/);
      assert.deepEqual(byName(checks, "writable").list, [ctx.workspace]);
      const hidden = byName(checks, "hidden paths");
      assert.ok(hidden.list!.includes(ctx.paths.envFile) && hidden.list!.includes(ctx.paths.home));
      assert.match(hidden.detail, new RegExp(`^${hidden.list!.length} paths look missing`));
      assert.deepEqual(byName(checks, "read-only paths").list, [
        join(ctx.workspace, ".git", "hooks"),
        join(ctx.workspace, ".git", "config"),
      ]);
      assert.match(byName(checks, "env scrub").detail, /SSH_AUTH_SOCK.*env_allow: GITHUB_TOKEN$/);
    });
  },
});

Deno.test("sandboxChecks() says when bash is not in bubblewrap, and stays quiet about root for a user", async () => {
  await withContext("", async (ctx) => {
    const checks = await sandboxChecks(ctx, {
      env: {},
      runtime: "deno",
      os: "linux",
      probe: broken,
      uid: 1000,
    });
    assert.deepEqual(byName(checks, "privileges"), {
      name: "privileges",
      status: "warn",
      detail: "bash is not in a bubblewrap sandbox",
    });
    assert.equal(checks.find((c) => c.name === "root"), undefined);
  });
});
