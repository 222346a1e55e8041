/**
 * `reasonix serve` stopped mid-turn (SIGTERM or SIGINT to the whole process group, as a service manager
 * or Ctrl+C sends it): the running turn is interrupted as a cancel would interrupt it and recorded before
 * the process exits 143 or 130, every tool call in the log has a result, no child is left, and `reasonix run -c` continues the
 * session with a request the simulator accepts.
 */
import assert from "node:assert/strict";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { cliCommand, makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";
import { describe, eventually, newMarker, processesOf } from "../support/processes.ts";
import { ofType, SseReader } from "../frontends/serve/_support.ts";

const linux = Deno.build.os === "linux";

const STOPS = [
  { signal: "SIGTERM", code: 143, result: /SIGTERM/ },
  { signal: "SIGINT", code: 130, result: /Interrupted by the user/ },
] as const;

for (const stop of STOPS) {
  Deno.test(
    `serve: ${stop.signal} mid-turn records the turn as interrupted, exits ${stop.code}, -c resumes`,
    {
      ignore: !linux,
    },
    () => stopMidTurn(stop),
  );
}

async function stopMidTurn(stop: (typeof STOPS)[number]): Promise<void> {
  const sim = await DeepSeekSim.start({
    script: [
      {
        reasoning: "Wait.",
        toolCalls: [{ name: "bash", arguments: JSON.stringify({ command: "sleep 30" }) }],
      },
      { reasoning: "Fine.", content: "resumed" },
    ],
  });
  const home = await makeHome({ simUrl: sim.url, extraToml: "[sandbox]\nbash = false\n" });
  const ws = await makeWorkspace({ "README.md": "# fixture\n" });
  const portFile = `${home}/port`;
  const token = "t".repeat(24);
  const marker = newMarker();
  const child = cliCommand([
    "serve",
    "--addr",
    "127.0.0.1:0",
    "--port-file",
    portFile,
    "--token",
    token,
    "--permission-mode",
    "yolo",
  ], { home, cwd: ws, detached: true, env: { [marker.name]: marker.value } }).spawn();
  const output = child.output();
  const left = () => processesOf({ leader: child.pid, marker: marker.entry });
  try {
    assert.ok(await eventually(() => portReady(portFile), 60_000), "serve wrote its port");
    const base = `http://127.0.0.1:${Deno.readTextFileSync(portFile).trim()}`;
    const call = (path: string, json?: unknown) =>
      fetch(`${base}${path}`, {
        method: json === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
    const { id } = await (await call("/api/sessions", {})).json();
    const stream = new SseReader(await call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    await (await call(`/api/sessions/${id}/input`, { text: "wait for it" })).body?.cancel();
    await stream.until(ofType("tool_call"));
    assert.ok(
      await eventually(() => left().some((p) => p.command.includes("sleep 30")), 20_000),
      "the sleep runs",
    );
    Deno.kill(-child.pid, stop.signal);
    const status = await child.status;
    await stream.close().catch(() => {});
    const out = await output;
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(status.code, stop.code, stderr);
    const stillThere = left();
    assert.deepEqual(stillThere, [], describe(stillThere));

    const [file] = await sessionFiles(home);
    const records = Deno.readTextFileSync(file!).trim().split("\n").map((line) => JSON.parse(line));
    const entries = records.filter((r) => r.type === "entry").map((r) => r.entry);
    const end = entries.find((e) => e.kind === "turn_end");
    assert.ok(end, `the turn's end is recorded:\n${JSON.stringify(records, null, 1)}`);
    assert.equal(end.subtype, "error_during_execution");
    assert.match(end.result, stop.result);
    const messages = records.filter((r) => r.type === "message").map((r) => r.message);
    const calls = messages.flatMap((m) => m.tool_calls ?? []).map((c: { id: string }) => c.id);
    const results = messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
    assert.equal(calls.length, 1);
    assert.deepEqual(results, calls, "every tool call has a result");
    const interrupted = messages.find((m) => m.role === "tool")!.content;
    assert.match(interrupted, /interrupt|SIGTERM/i, `the sleep's result says it was stopped: ${interrupted}`);
    assert.ok(
      !messages.some((m) => /process running it stopped/.test(String(m.content))),
      "no after-the-fact repair note",
    );

    const resumed = await runCli(["run", "-c", "--output-format", "json", "go on"], { home, cwd: ws });
    assert.equal(resumed.code, 0, resumed.stderr);
    const result = JSON.parse(resumed.stdout.trim().split("\n").at(-1)!);
    assert.equal(result.result, "resumed");
    assert.equal(result.session_id, id);
    assert.equal(sim.requests.length, 2);
    assert.ok(sim.requests.every((r) => r.status === 200), "the continued session makes a valid request");
  } finally {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* exited */ }
    await child.status;
    await sim.close();
    await removeAll(home, ws);
  }
}

function portReady(path: string): boolean {
  try {
    return /^\d+\n$/.test(Deno.readTextFileSync(path));
  } catch {
    return false;
  }
}
