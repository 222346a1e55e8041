/**
 * `reasonix run` against the simulator, the model reaching a proxied tool the way it would: list the
 * catalogue, then call the tool through use_capability; and a second process that continues the
 * session sends the same tools bytes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

function proxied(reasoning: string, args: Record<string, unknown>): ScriptedReply {
  return { reasoning, toolCalls: [{ name: "use_capability", arguments: JSON.stringify(args) }] };
}

const MOVE = {
  action: "call",
  capability_id: "tool:move_file",
  arguments: { source_path: "old.txt", destination_path: "new/name.txt" },
};

function toolsOf(body: string): string {
  return body.slice(body.indexOf(`"tools":`), body.indexOf(`,"stream":`));
}

function events(stdout: string): { type: string; name?: string; arguments?: string; data?: unknown }[] {
  return stdout.trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test("reasonix run: use_capability list, then call, runs the proxied tool and keeps the prefix across processes", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      proxied("What can I reach?", { action: "list" }),
      proxied("move_file is there.", MOVE),
      { reasoning: "Moved.", content: "Moved old.txt to new/name.txt." },
      { reasoning: "Check.", toolCalls: [{ name: "read_file", arguments: `{"path":"new/name.txt"}` }] },
      { reasoning: "Read.", content: "It says moved." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "old.txt": "moved\n" });
  try {
    const run = await runCli(
      ["run", "--permission-mode", "auto", "--output-format", "stream-json", "move old.txt"],
      { home, cwd: ws },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await Deno.readTextFile(join(ws, "new/name.txt")), "moved\n");
    const seen = events(run.stdout);
    const calls = seen.filter((event) => event.type === "tool_call").map((event) => event.name);
    assert.deepEqual(calls, ["use_capability", "move_file"], "the face shows the inner tool");
    const moved = seen.find((event) => event.type === "tool_result" && event.name === "move_file");
    assert.deepEqual(moved?.data, { kind: "move", from: "old.txt", to: "new/name.txt" });

    const list = JSON.parse(sim.requests[1]!.json.messages.at(-1).content);
    assert.ok(list.capabilities.some((capability: { id: string }) => capability.id === "tool:move_file"));

    const next = await runCli(["run", "-c", "--output-format", "json", "check it"], { home, cwd: ws });
    assert.equal(next.code, 0, next.stderr);
    assert.equal(JSON.parse(next.stdout).result, "It says moved.");
    const tools = sim.requests.map((request) => toolsOf(request.body));
    assert.equal(tools.length, 5);
    for (const [index, bytes] of tools.entries()) assert.equal(bytes, tools[0], `request ${index + 1}`);
    assert.doesNotMatch(tools[0]!, /"name":"move_file"/, "move_file is not in the tools array");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run: a proxied writer needs the same approval as a direct one", async () => {
  const sim = await DeepSeekSim.start({
    script: [proxied("Move it.", MOVE), { reasoning: "Refused.", content: "I could not move it." }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "old.txt": "moved\n" });
  try {
    const run = await runCli(["run", "--permission-mode", "read-only", "--output-format", "json", "move"], {
      home,
      cwd: ws,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await Deno.readTextFile(join(ws, "old.txt")), "moved\n");
    const answer = sim.requests[1]!.json.messages.at(-1);
    assert.equal(answer.name, "use_capability");
    assert.match(answer.content, /^Error \[permission\.(denied|needs_approval)\]: Not run \(move_file\)/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
