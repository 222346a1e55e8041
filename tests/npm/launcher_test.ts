import assert from "node:assert/strict";
import { join } from "node:path";
import { VERSION } from "../../src/lib/version.ts";
import { cliEnv, makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { buildFixturePackages, FIXTURE_BINARY, npmInstall } from "./_install.ts";

const REAL_BINARY = Deno.env.get("REASONIX_TEST_BINARY");
const LINUX_X64 = Deno.build.os === "linux" && Deno.build.arch === "x86_64";

interface Launched {
  code: number;
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

async function launch(bin: string, args: string[], options: { home: string; stdin?: string }) {
  const child = new Deno.Command(bin, {
    args,
    env: cliEnv(options.home),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, signal: out.signal, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/** Starts the fixture's `wait-signal`, waits for "ready", then sends SIGINT to the launcher only. */
async function interrupt(bin: string, home: string): Promise<Launched> {
  const child = new Deno.Command(bin, {
    args: ["wait-signal"],
    env: cliEnv(home),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  let stdout = "";
  while (!stdout.includes("ready\n")) {
    const chunk = await reader.read();
    if (chunk.done) break;
    stdout += new TextDecoder().decode(chunk.value);
  }
  child.kill("SIGINT");
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    stdout += new TextDecoder().decode(chunk.value);
  }
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  return { code: status.code, signal: status.signal, stdout, stderr };
}

Deno.test({
  name: `npm launcher installed offline runs the ${REAL_BINARY ? "real" : "fixture"} binary`,
  ignore: !LINUX_X64,
  fn: async (t) => {
    const built = await buildFixturePackages(REAL_BINARY ?? FIXTURE_BINARY, true);
    const full = join(built.root, "full");
    const bare = join(built.root, "bare");
    const home = await Deno.makeTempDir({ prefix: "reasonix-home-" });
    try {
      await npmInstall({
        prefix: full,
        cache: join(built.root, "cache"),
        tarballs: [built.tarball("reasonix"), built.tarball("@reasonix/cli-linux-x64")],
      });
      const bin = join(full, "bin", "reasonix");

      await t.step("--version is one line with the version", async () => {
        const run = await launch(bin, ["--version"], { home });
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stdout, `reasonix v${VERSION}\n`);
      });

      await t.step("argv reaches the binary unchanged", async () => {
        if (REAL_BINARY) {
          const run = await launch(bin, ["version", "--json"], { home });
          assert.equal(run.code, 0, run.stderr);
          assert.equal(JSON.parse(run.stdout).version, VERSION);
          return;
        }
        const args = ["two words", "", "--flag=x", `quote"d`, "ünï"];
        const run = await launch(bin, ["args", ...args], { home });
        assert.equal(run.stdout, args.map((arg) => arg + "\n").join(""));
      });

      await t.step("the exit code is the binary's", async () => {
        const run = REAL_BINARY
          ? await launch(bin, ["no-such-command"], { home })
          : await launch(bin, ["exit", "7"], { home });
        assert.equal(run.code, REAL_BINARY ? 2 : 7);
      });

      await t.step("stdin reaches the binary", async () => {
        if (REAL_BINARY) return await realStdin(bin);
        const run = await launch(bin, ["cat"], { home, stdin: "line one\nline two\n" });
        assert.equal(run.stdout, "line one\nline two\n");
      });

      await t.step({
        name: "SIGINT to the launcher reaches the binary",
        ignore: Boolean(REAL_BINARY),
        fn: async () => {
          const run = await interrupt(bin, home);
          assert.match(run.stdout, /fixture got SIGINT/);
          assert.equal(run.code, 42);
        },
      });

      await t.step({
        name: "a binary killed by a signal makes the launcher die of the same signal",
        ignore: Boolean(REAL_BINARY),
        fn: async () => {
          const run = await launch(bin, ["kill-self"], { home });
          assert.equal(run.signal, "SIGTERM");
        },
      });

      await t.step("without the platform package the message names it", async () => {
        await npmInstall({
          prefix: bare,
          cache: join(built.root, "cache"),
          tarballs: [built.tarball("reasonix")],
        });
        const run = await launch(join(bare, "bin", "reasonix"), ["--version"], { home });
        assert.equal(run.code, 1);
        assert.equal(run.stdout, "");
        assert.match(run.stderr, /platform package @reasonix\/cli-linux-x64 is not installed/);
        assert.match(
          run.stderr,
          new RegExp(`npm install -g @reasonix/cli-linux-x64@${VERSION.replaceAll(".", "\\.")}`),
        );
      });

      await t.step(
        "the platform package nested under reasonix/node_modules (npm's usual layout) is found",
        async () => {
          const nested = join(bare, "lib", "node_modules", "reasonix", "node_modules", "@reasonix");
          await Deno.mkdir(nested, { recursive: true });
          await Deno.rename(
            join(full, "lib", "node_modules", "@reasonix", "cli-linux-x64"),
            join(nested, "cli-linux-x64"),
          );
          const run = await launch(join(bare, "bin", "reasonix"), ["--version"], { home });
          assert.equal(run.code, 0, run.stderr);
          assert.equal(run.stdout, `reasonix v${VERSION}\n`);
        },
      );
    } finally {
      await removeAll(built.root, home);
    }
  },
});

/** With a real binary: a headless run whose task comes from stdin, against the DeepSeek simulator. */
async function realStdin(bin: string): Promise<void> {
  const sim = await DeepSeekSim.start({ script: [{ content: "ok from the simulator" }] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  try {
    const run = await launch(bin, ["-p", "--dir", ws], { home, stdin: "say ok\n" });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "ok from the simulator\n");
    assert.equal(sim.requests[0]!.json.messages.at(-1).content, "say ok");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}
