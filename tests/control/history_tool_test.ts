/**
 * Effect test for the `history` tool through the real assembly (boot → Controller → loop → dispatch →
 * use_capability → history) against the simulator: a fact said in an earlier session comes back to the
 * model in a later one, and the tools array and system prompt are those of a build without the tool.
 */
import assert from "node:assert/strict";
import { bootController } from "../../src/control/boot.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { builtinRegistry } from "../../src/tool/builtin/mod.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { splitBody } from "../support/prefix_guard.ts";
import { withController } from "../support/controller_session.ts";

function capability(args: Record<string, unknown>): ScriptedReply {
  return { reasoning: "look back", toolCalls: [{ name: "use_capability", arguments: JSON.stringify(args) }] };
}

type Message = { role: string; content: string; name?: string };

function lastTool(sim: DeepSeekSim, index: number): string {
  const messages = sim.requests[index]!.json.messages as Message[];
  const last = messages.at(-1)!;
  assert.equal(last.role, "tool");
  return last.content;
}

Deno.test("history: the model finds an earlier session's fact through use_capability and reads around it", async () => {
  const fixed: ScriptedReply[] = [
    { content: "Noted." },
    capability({ action: "search", query: "search earlier conversations history" }),
    capability({
      action: "call",
      capability_id: "tool:history",
      arguments: { query: "staging database port" },
    }),
  ];
  // The around call takes its session and message_index from the search result the model just read.
  const script = (request: { json: Record<string, unknown> }, index: number): ScriptedReply => {
    if (index < fixed.length) return fixed[index]!;
    if (index > fixed.length) return { content: "The staging database listens on 6543." };
    const text = (request.json.messages as Message[]).at(-1)!.content;
    const [, session, at] = /session (\S+) message_index (\d+)/.exec(text)!;
    return capability({
      action: "call",
      capability_id: "tool:history",
      arguments: { operation: "around", session, message_index: Number(at), before: 1, after: 1 },
    });
  };
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  const boot = () =>
    bootController({ cwd: ws, headless: true, env: {}, paths: resolvePaths({ REASONIX_HOME: home }) });
  try {
    const first = await boot();
    assert.equal((await first.runTurn("note: the staging database port is 6543")).subtype, "success");
    const earlier = first.sessionId;
    await first.close();

    const second = await boot();
    try {
      assert.equal((await second.runTurn("which port did I give you for staging?")).subtype, "success");
      const found = JSON.parse(lastTool(sim, 2)) as { capabilities: { id: string }[] };
      assert.ok(found.capabilities.some((result) => result.id === "tool:history"), "search finds the tool");
      const hits = lastTool(sim, 3);
      assert.match(hits, new RegExp(`session ${earlier} message_index (\\d+) · user`));
      assert.match(hits, /the staging database port is 6543/);
      assert.notEqual(second.sessionId, earlier);
      assert.ok(!hits.includes(second.sessionId), "the running session's live messages are not results");
      const window = lastTool(sim, 4);
      assert.match(window, new RegExp(`^Session ${earlier} \\(`));
      assert.match(window, /\[\d+\] user · .* ◀ the result\nnote: the staging database port is 6543/);
      assert.match(window, /assistant · .*\nNoted\./);
      assert.equal(sim.requests.length, 5);

      const bodies = sim.requests.map((request) => request.body);
      const tools = `"tools":${builtinRegistry().toolsJson()}`;
      for (const body of bodies) assert.equal(splitBody(body).tools, tools, "the tools array is unchanged");
      assert.doesNotMatch(splitBody(bodies[1]!).system, /history\(/, "the system prompt is unchanged");
    } finally {
      await second.close();
    }
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("history: a deny rule turns the tool off, even for a read-only search in yolo mode", async () => {
  const call = capability({
    action: "call",
    capability_id: "tool:history",
    arguments: { query: "anything" },
  });
  await withController({
    script: [call, { content: "done" }],
    extraToml: `[permissions]\ndeny = ["history"]\n`,
    flags: { permissionMode: "yolo" },
    listen: false,
  }, async ({ sim, controller }) => {
    assert.equal((await controller.runTurn("look back")).subtype, "success");
    assert.match(lastTool(sim, 1), /^Error \[permission\.denied\]: Not run \(history\)/);
  });
});
