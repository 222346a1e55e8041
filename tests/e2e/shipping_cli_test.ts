import assert from "node:assert/strict";
import { VERSION } from "../../src/lib/version.ts";
import { makeWorkspace, removeAll, runCli } from "../support/cli.ts";

async function dirs(): Promise<{ home: string; cwd: string }> {
  return { home: await Deno.makeTempDir({ prefix: "reasonix-home-" }), cwd: await makeWorkspace({}) };
}

Deno.test("--version, -v and `version` from source report the version and an honest dev build", async () => {
  const { home, cwd } = await dirs();
  try {
    for (const flag of ["--version", "-v", "version"]) {
      const run = await runCli([flag], { home, cwd });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, `reasonix v${VERSION}\n`);
    }
    const json = JSON.parse((await runCli(["version", "--json"], { home, cwd })).stdout);
    assert.deepEqual(Object.keys(json), ["version", "git_commit", "build_time_utc", "build_target", "deno"]);
    assert.equal(json.version, VERSION);
    assert.equal(json.git_commit, "dev");
    assert.equal(json.build_target, Deno.build.target);
    const verbose = await runCli(["version", "--verbose"], { home, cwd });
    assert.match(
      verbose.stdout,
      new RegExp(`^reasonix v${VERSION}\ncommit  dev\n.*\ndeno    ${Deno.version.deno}\n$`, "s"),
    );
  } finally {
    await removeAll(home, cwd);
  }
});

Deno.test("`completion` covers every command defined in main.ts and refuses unknown shells", async () => {
  const { home, cwd } = await dirs();
  try {
    const bash = await runCli(["completion", "bash"], { home, cwd });
    assert.equal(bash.code, 0, bash.stderr);
    for (
      const word of ["run", "config/get", "session/list", "cache/explain", "upgrade", "update", "completion"]
    ) {
      assert.ok(bash.stdout.includes(` ${word} `), word);
    }
    assert.match(bash.stdout, /complete -o default -F _reasonix reasonix\n$/);
    assert.match((await runCli(["completion", "zsh"], { home, cwd })).stdout, /^#compdef reasonix\n/);
    assert.match((await runCli(["completion", "fish"], { home, cwd })).stdout, /complete -c reasonix /);
    const bad = await runCli(["completion", "tcsh"], { home, cwd });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown shell "tcsh": use bash, zsh or fish/);
  } finally {
    await removeAll(home, cwd);
  }
});

Deno.test("`upgrade --check` reads REASONIX_UPDATE_URL; from source `update` refuses to replace anything", async () => {
  const { home, cwd } = await dirs();
  const manifest = { version: "99.0.0", assets: {} };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json(manifest));
  const env = { REASONIX_UPDATE_URL: `http://127.0.0.1:${server.addr.port}/latest.json` };
  try {
    const check = await runCli(["upgrade", "--check"], { home, cwd, env });
    assert.equal(check.code, 0, check.stderr);
    assert.equal(
      check.stdout,
      `reasonix v99.0.0 is available (this is v${VERSION})\n` +
        "This Reasonix runs from a source checkout: update it with `git pull`\n",
    );
    const update = await runCli(["update"], { home, cwd, env });
    assert.equal(update.code, 1);
    assert.match(update.stderr, /runs from a source checkout/);
  } finally {
    await server.shutdown();
    await removeAll(home, cwd);
  }
});
