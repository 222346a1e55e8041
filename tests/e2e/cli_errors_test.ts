/**
 * The one error policy, seen from outside: every command reports a failure as `error:` and `hint:` lines
 * (or as the run result when `run` promised JSON) and exits with the documented status.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("a missing --dir is the same usage error (exit 2) for the shell, run and the admin commands", async () => {
  const home = await Deno.makeTempDir();
  const ws = await makeWorkspace({});
  const missing = join(ws, "missing");
  const message = `error: Cannot use "${missing}" for --dir: not an existing directory\n`;
  try {
    for (
      const [args, help] of [
        [["--dir", missing], "reasonix --help"],
        [["run", "--dir", missing, "x"], "reasonix run --help"],
        [["config", "get", "--dir", missing, "tools.bash_timeout_seconds"], "reasonix config get --help"],
        [["doctor", "--dir", missing], "reasonix doctor --help"],
        [["session", "list", "--dir", missing], "reasonix session list --help"],
      ] as const
    ) {
      const run = await runCli([...args], { home, cwd: ws });
      assert.deepEqual(
        [run.code, run.stderr, run.stdout],
        [2, `${message}hint: Run "${help}" for the options\n`, ""],
        args.join(" "),
      );
    }
    const addDir = await runCli(["run", "--add-dir", missing, "x"], { home, cwd: ws });
    assert.equal(addDir.code, 2);
    assert.match(addDir.stderr, /^error: Cannot use ".*missing" for --add-dir: not an existing directory\n/);
    const setup = await runCli(["setup", missing], { home, cwd: ws });
    assert.equal(setup.code, 2);
    assert.match(setup.stderr, /^error: Cannot use ".*missing" for reasonix setup \[path\]/);
    const output = await runCli(["run", "--trajectory", join(missing, "t.jsonl"), "x"], { home, cwd: ws });
    assert.equal(output.code, 2);
    assert.match(
      output.stderr,
      /^error: Cannot write --trajectory to ".*t\.jsonl": no directory ".*missing"\n/,
    );
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("numeric options refuse bad values with a message that names the option (exit 2)", async () => {
  const home = await Deno.makeTempDir();
  try {
    for (const value of ["-1", "abc", "1.5", ""]) {
      const run = await runCli(["run", "--max-steps", value, "x"], { home, cwd: home });
      assert.deepEqual([run.code, run.stderr], [
        2,
        `error: --max-steps must be a whole number, 0 or more (0 = automatic), got ${
          JSON.stringify(value)
        }\n` +
        `hint: Run "reasonix run --help" for the options\n`,
      ]);
    }
    const turn = await runCli(["session", "rewind", "latest", "--turn", "0", "--code"], { home, cwd: home });
    assert.deepEqual([turn.code, turn.stderr], [
      2,
      `error: --turn must be a positive integer, got "0"\nhint: Run "reasonix session rewind --help" for the options\n`,
    ]);
  } finally {
    await removeAll(home);
  }
});

Deno.test("--max-steps 0 is accepted: it means automatic", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "Hello." }] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  try {
    const run = await runCli(["run", "-p", "--max-steps", "0", "say hello"], { home, cwd: ws });
    assert.deepEqual([run.code, run.stdout], [0, "Hello.\n"], run.stderr);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("commander's usage errors go through the same policy, with a hint to the command's help", async () => {
  const home = await Deno.makeTempDir();
  try {
    const unknown = await runCli(["run", "--bogus", "x"], { home, cwd: home });
    assert.deepEqual([unknown.code, unknown.stderr], [
      2,
      `error: Unknown option '--bogus'\nhint: Run "reasonix run --help" for the options\n`,
    ]);
    const typo = await runCli(["run", "--modle", "x"], { home, cwd: home });
    assert.deepEqual([typo.code, typo.stderr], [
      2,
      `error: Unknown option '--modle'\nhint: did you mean --model? "reasonix run --help" lists the options\n`,
    ]);
    const topic = await runCli(["help", "sesion"], { home, cwd: home });
    assert.deepEqual([topic.code, topic.stdout, topic.stderr], [
      2,
      "",
      `error: Unknown command "sesion"\nhint: did you mean "reasonix session"?\n`,
    ]);
    const missing = await runCli(["config", "get"], { home, cwd: home });
    assert.deepEqual([missing.code, missing.stderr], [
      2,
      `error: Missing required argument 'key'\nhint: Run "reasonix config get --help" for the options\n`,
    ]);
  } finally {
    await removeAll(home);
  }
});

Deno.test("under --output-format json a usage error is the run result on stdout (exit 2)", async () => {
  const home = await Deno.makeTempDir();
  const ws = await makeWorkspace({});
  try {
    for (
      const [args, code] of [
        [["run", "--output-format", "json", "--max-steps", "abc", "x"], "usage.invalid_value"],
        [["run", "--output-format=stream-json", "--bogus", "x"], "usage.unknown_option"],
        [["run", "--output-format", "json", "--dir", join(ws, "missing"), "x"], "usage.bad_dir"],
      ] as const
    ) {
      const run = await runCli([...args], { home, cwd: ws });
      assert.equal(run.code, 2, args.join(" "));
      assert.equal(run.stderr, "");
      const lines = run.stdout.trim().split("\n");
      assert.equal(lines.length, 1, run.stdout);
      const result = JSON.parse(lines[0]!);
      assert.equal(result.type, "result");
      assert.equal(result.subtype, "error_during_execution");
      assert.equal(result.is_error, true);
      assert.equal(result.num_turns, 0);
      assert.equal(result.session_id, null);
      assert.equal(result.error.code, code);
      assert.equal(result.result, result.error.message);
      assert.match(result.error.hint, /reasonix run --help/);
    }
    const events = await runCli(["run", "--events-jsonl", "--max-steps", "-1", "x"], { home, cwd: ws });
    assert.equal(events.code, 2);
    const done = JSON.parse(events.stdout);
    assert.deepEqual([done.kind, done.ok, done.error_code], ["run_done", false, "usage.invalid_value"]);
  } finally {
    await removeAll(home, ws);
  }
});
