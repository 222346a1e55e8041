import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { cliCommand, makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";
import manifest from "../../deno.json" with { type: "json" };

async function listTree(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("--help and -h have no side effects on any command", async () => {
  const home = await Deno.makeTempDir();
  const ws = await makeWorkspace({});
  try {
    for (
      const args of [
        ["--help"],
        ["-h"],
        ["run", "--help"],
        ["run", "-h"],
        ["config", "set", "--help"],
        [
          "trust-key",
          "--help",
        ],
        ["session", "list", "-h"],
        ["version", "--help"],
      ]
    ) {
      const run = await runCli(args, { home, cwd: ws });
      assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stdout, /Usage: reasonix/);
    }
    assert.deepEqual(await listTree(home), []);
    assert.deepEqual(await listTree(ws), []);
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("--version prints one script-safe line from deno.json", async () => {
  const home = await Deno.makeTempDir();
  try {
    const run = await runCli(["--version"], { home, cwd: home });
    assert.equal(run.stdout, `reasonix v${manifest.version}\n`);
    const json = JSON.parse((await runCli(["version", "--json"], { home, cwd: home })).stdout);
    assert.equal(json.version, manifest.version);
  } finally {
    await removeAll(home);
  }
});

Deno.test("unknown commands and flags are usage errors (exit 2)", async () => {
  const home = await Deno.makeTempDir();
  try {
    const unknown = await runCli(["frobnicate"], { home, cwd: home });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^error: Unknown command "frobnicate"\nhint: did you mean one of: run, /);
    const goOnly = await runCli(["hook"], { home, cwd: home });
    assert.equal(goOnly.code, 2);
    assert.match(
      goOnly.stderr,
      /Unknown command "hook".*\nhint: "hook" is a Go Reasonix command .*did you mean/,
    );
    const typo = await runCli(["sesion", "list"], { home, cwd: home });
    assert.deepEqual([typo.code, typo.stderr], [
      2,
      `error: Unknown command "sesion"\nhint: did you mean "reasonix session"?\n`,
    ]);
    assert.equal((await runCli(["run", "--bogus", "x"], { home, cwd: home })).code, 2);
    const none = await runCli(["run"], { home, cwd: home });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /usage: reasonix run/);
    const both = await runCli(["run", "--yolo", "--permission-mode", "auto", "x"], { home, cwd: home });
    assert.equal(both.code, 2);
  } finally {
    await removeAll(home);
  }
});

Deno.test("-p reads the task from stdin and prints only the answer; outputs and logs are written", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { reasoning: "hmm", toolCalls: [{ name: "ls", arguments: `{}` }] },
      { content: "Two files." },
      { content: "again" },
      { content: "third" },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "a\n", "b.txt": "SECRET-CONTENT\n" });
  try {
    const trajectory = join(home, "t.jsonl");
    const metrics = join(home, "m.json");
    const run = await runCli(["-p", "--trajectory", trajectory, "--metrics", metrics], {
      home,
      cwd: ws,
      stdin: "how many files?\n",
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "Two files.\n");
    assert.equal(sim.requests[0]!.json.messages.at(-1).content, "how many files?");
    const lines = (await Deno.readTextFile(trajectory)).trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.seq), lines.map((_, i) => i + 1));
    assert.ok(lines.every((l) => l.schema_version === 1 && typeof l.ts === "number"));
    assert.ok(lines.some((l) => l.event.type === "tool_result" && l.event.output.includes("a.txt")));
    const m = JSON.parse(await Deno.readTextFile(metrics));
    assert.equal(m.tool_calls, 1);
    assert.deepEqual(m.tool_calls_by_name, { ls: 1 });
    assert.equal(m.outcome, "success");
    assert.equal(m.prompt_tokens, sim.stats().promptTokens);

    const events = await runCli(["run", "--events-jsonl", "-c", "again"], { home, cwd: ws });
    assert.equal(events.code, 0, events.stderr);
    assert.doesNotMatch(events.stdout, /SECRET|again/);
    const last = JSON.parse(events.stdout.trim().split("\n").at(-1)!);
    assert.equal(last.kind, "run_done");
    assert.equal(last.ok, true);

    const text = await runCli(["run", "-c", "third"], { home, cwd: ws });
    assert.equal(text.stdout, "third\n");
    const sessionId = last.session_id as string;
    assert.match(
      text.stderr,
      new RegExp(
        String.raw`^ {2}· \d+ tok · in \d+ \(\d+ cached / \d+ new, \d+% hit\) · out \d+ · ¥[\d.]+\n` +
          String.raw`session ${sessionId} · ¥[\d.]+ · 1 request · cache hit \d+%\n$`,
      ),
    );
    assert.equal((await sessionFiles(home)).length, 1);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("--resume picks a session by id prefix; config warnings go to stderr in json mode", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ content: "one" }, { content: "two" }, { content: "three" }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "reasonix.toml": `[tools]\nbash_timout_seconds = 5\n` });
  try {
    const firstRun = await runCli(["run", "--output-format", "json", "a"], { home, cwd: ws });
    assert.match(firstRun.stderr, /reasonix\.toml:2:1: .*bash_timout_seconds/);
    const first = JSON.parse(firstRun.stdout);
    const second = await runCli(["run", "--output-format", "json", "b"], { home, cwd: ws });
    assert.doesNotMatch(second.stderr, /bash_timout_seconds/, "warned once per content of the file");
    assert.notEqual(JSON.parse(second.stdout).session_id, first.session_id);
    const resumed = await runCli(
      ["run", "--resume", first.session_id.slice(0, 21), "--output-format", "json", "c"],
      { home, cwd: ws },
    );
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(JSON.parse(resumed.stdout).session_id, first.session_id);
    const replayed = sim.requests[2]!.json.messages.map((m: { content: string }) => m.content);
    assert.deepEqual(replayed.slice(2), ["a", "one", "c"]);
    const missing = await runCli(["run", "--resume", "nope", "x"], { home, cwd: ws });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nope/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix help prints help, and help <command> that command's", async () => {
  const home = await Deno.makeTempDir();
  try {
    const help = await runCli(["help"], { home, cwd: home });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: reasonix \[options\] \[command\]/);
    const run = await runCli(["help", "run"], { home, cwd: home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Usage: reasonix run \[options\] \[task\.\.\.\]/);
  } finally {
    await removeAll(home);
  }
});

Deno.test("a reader that leaves early (| head) ends the output quietly, with 141 at most", async () => {
  const home = await Deno.makeTempDir();
  try {
    for (const args of [["--help"], ["help", "run"], ["completion", "bash"], ["session", "list"]]) {
      const child = cliCommand(args, { home, cwd: home }).spawn();
      await child.stdout.cancel();
      const stderr = await new Response(child.stderr).text();
      const { code } = await child.status;
      assert.equal(stderr, "", args.join(" "));
      assert.ok(code === 0 || code === 141, `${args.join(" ")}: exit ${code}`);
    }
  } finally {
    await removeAll(home);
  }
});
