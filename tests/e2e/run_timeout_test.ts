import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, runCli, sessionFiles } from "../support/cli.ts";
import { loadSession } from "../../src/session/store.ts";
import { type SimHome, withSimHome } from "../support/sim_home.ts";

const STALL: ScriptedReply = { fault: { kind: "hang" } };

/** A home whose provider requests give up on a stall after half a second (3 retries, 20 ms backoff). */
async function shortTimeoutHome(simUrl: string): Promise<string> {
  const home = await makeHome({ simUrl });
  const file = join(home, "config.toml");
  const toml = await Deno.readTextFile(file);
  const timeouts =
    "connect_timeout_seconds = 0.5\nfirst_byte_timeout_seconds = 0.5\nidle_timeout_seconds = 0.5\n";
  await Deno.writeTextFile(file, toml.replace("[network]\n", `[network]\n${timeouts}`));
  return home;
}

function withSim(script: ScriptedReply[], body: (ctx: SimHome) => Promise<void>): Promise<void> {
  return withSimHome(script, body, { makeHome: shortTimeoutHome });
}

Deno.test("run retries a reply that stalls before its first byte, then succeeds", () =>
  withSim([STALL, { content: "ok" }], async ({ sim, home, ws }) => {
    const run = await runCli(["run", "--output-format", "stream-json", "say ok"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const retry = lines.find((line) => line.type === "retrying");
    assert.ok(retry, "a retrying event is streamed");
    assert.match(JSON.stringify(retry), /no data within 0\.5 s of the response headers/);
    assert.equal(lines.at(-1).result, "ok");
    assert.equal(sim.requests.length, 2);
  }));

Deno.test("run gives up on a provider that always stalls: a clear message, exit 3, a resumable session", () =>
  withSim([STALL, STALL, STALL, STALL], async ({ sim, home, ws }) => {
    const started = performance.now();
    const run = await runCli(["run", "say ok"], { home, cwd: ws });
    const elapsedMs = performance.now() - started;
    assert.equal(run.code, 3, run.stderr);
    const host = new URL(sim.url).host;
    const printed = run.stdout + run.stderr;
    assert.match(
      printed,
      new RegExp(
        `Cannot get a reply from ${host}: no data within 0\\.5 s of the response headers after 4 attempts`,
      ),
    );
    assert.match(printed, /\[network\] timeouts/);
    assert.equal(sim.requests.length, 4);
    // 4 × 0.5 s of deadlines plus backoff and the process start: far from an unbounded hang.
    assert.ok(elapsedMs < 30_000, `took ${elapsedMs} ms`);

    const files = await sessionFiles(home);
    assert.equal(files.length, 1);
    const session = await loadSession(files[0]!);
    assert.equal(session.tornTail, false);
    assert.ok(session.messages.some((m) => m.role === "user" && m.content === "say ok"));

    sim.push({ content: "resumed" });
    const resumed = await runCli(["run", "-c", "--output-format", "json", "try again"], { home, cwd: ws });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(JSON.parse(resumed.stdout.trim().split("\n").at(-1)!).result, "resumed");
    const sent = sim.requests.at(-1)!.json.messages.map((m: { content: unknown }) => m.content);
    assert.ok(sent.includes("say ok") && sent.includes("try again"), "the stalled task is replayed");
  }));

Deno.test("run reads the timeouts from [network] and rejects a non-positive one at its line", () =>
  withSim([], async ({ sim, home, ws }) => {
    const file = join(home, "config.toml");
    const toml = await Deno.readTextFile(file);
    await Deno.writeTextFile(file, toml.replace("idle_timeout_seconds = 0.5", "idle_timeout_seconds = 0"));
    const run = await runCli(["run", "say ok"], { home, cwd: ws });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /config\.toml:\d+:\d+: .*idle_timeout_seconds.*above 0/);
    assert.equal(sim.requests.length, 0);
  }));
