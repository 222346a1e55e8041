/**
 * kill -9 of the real `reasonix run` (both processes: it re-runs itself under the Deno fence) at random
 * points of a scripted multi-turn session with tool calls. After every kill each session file must load,
 * and `run -c` must work under the simulator's strict replay rule. CRASH_POINTS=N (default 20) sets the
 * number of kills, CRASH_SEED=S replays a run's points.
 */
import assert from "node:assert/strict";
import { DeepSeekSim, type RecordedRequest, type ScriptedReply } from "../support/deepseek_sim.ts";
import { cliCommand, makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";
import { loadSession } from "../../src/session/store.ts";

const POINTS = Number(Deno.env.get("CRASH_POINTS") ?? "20");
const SEED = Number(Deno.env.get("CRASH_SEED") ?? String(Date.now() % 100_000));

/** A user turn calls bash and read_file, then answers; the check turn ("check") answers at once. */
function respond(request: RecordedRequest): ScriptedReply {
  const messages = request.json.messages as { role: string; content: string | null }[];
  const last = messages.at(-1)!;
  if (last.role === "user" && last.content === "check") return { reasoning: "Fine.", content: "checked" };
  if (last.role === "user") {
    return {
      reasoning: "Look around first.",
      toolCalls: [
        { name: "bash", arguments: JSON.stringify({ command: "sleep 0.3; echo step" }) },
        { name: "read_file", arguments: JSON.stringify({ path: "README.md" }) },
      ],
    };
  }
  return { reasoning: "Now answer.", content: "done with the task" };
}

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}

Deno.test(`kill -9 of reasonix run at ${POINTS} random points never leaves a session -c cannot continue`, async () => {
  const sim = await DeepSeekSim.start({ script: respond });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "README.md": "# fixture\n" });
  const next = random(SEED);
  const cli = (args: string[]) => runCli(["run", "--permission-mode", "yolo", ...args], { home, cwd: ws });
  try {
    let started = performance.now();
    const first = await cli(["first task"]);
    assert.equal(first.code, 0, first.stderr);
    const turnMs = performance.now() - started;
    for (let point = 1; point <= POINTS; point++) {
      const delay = Math.round(turnMs * (0.2 + 0.9 * next()));
      const context = `point ${point} of ${POINTS}, ${delay} ms into a ~${
        turnMs.toFixed(0)
      } ms turn (seed ${SEED})`;
      const child = cliCommand(["run", "--permission-mode", "yolo", "-c", `task ${point}`], {
        home,
        cwd: ws,
        detached: true,
      }).spawn();
      started = performance.now();
      await new Promise((r) => setTimeout(r, delay));
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // It finished first: a valid point too.
      }
      await child.output();
      for (const file of await sessionFiles(home)) {
        await loadSession(file).catch((error) => assert.fail(`${context}: ${file} does not load: ${error}`));
      }
      const before = sim.requests.length;
      const check = await cli(["-c", "--output-format", "json", "check"]);
      assert.equal(check.code, 0, `${context}: ${check.stdout}\n${check.stderr}`);
      assert.equal(JSON.parse(check.stdout.trim().split("\n").at(-1)!).result, "checked", context);
      assert.ok(sim.requests.slice(before).every((r) => r.status === 200), context);
    }
    assert.equal((await sessionFiles(home)).length, 1, "every run continued the one session");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
