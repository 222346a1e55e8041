/**
 * Effect test for the session-model refactor: a scripted multi-turn session with tools, a failed turn, a
 * compaction and a resume, whose request bodies must equal, byte for byte, the bodies recorded from the
 * code before the refactor (fixtures/request_bytes.json; regenerate only on a deliberate wire change with
 * `UPDATE_GOLDEN=1`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { builtinRegistry } from "../../src/tool/builtin/mod.ts";
import { withController } from "../support/controller_session.ts";

const GOLDEN = join(import.meta.dirname!, "fixtures", "request_bytes.json");
const FAIL = { fault: { kind: "status", status: 500 } } as const;

const SCRIPT: ScriptedReply[] = [
  {
    reasoning: "plan",
    toolCalls: [{
      name: "todo_write",
      arguments:
        `{"todos":[{"content":"look","status":"in_progress"},{"content":"edit","status":"pending"}]}`,
    }],
  },
  {
    reasoning: "look",
    toolCalls: [
      {
        name: "use_capability",
        arguments: `{"action":"call","capability_id":"tool:ls","arguments":{"path":"."}}`,
      },
      { name: "read_file", arguments: `{"path":"a.txt"}` },
    ],
  },
  {
    reasoning: "edit",
    toolCalls: [{
      name: "edit_file",
      arguments: `{"path":"a.txt","old_string":"alpha","new_string":"beta"}`,
    }],
  },
  { reasoning: "check", toolCalls: [{ name: "bash", arguments: `{"command":"cat a.txt"}` }] },
  { reasoning: "done", content: "a.txt now holds **beta**" },
  { content: "second answer" },
  FAIL,
  FAIL,
  FAIL,
  FAIL,
  { content: "Goal: edit a.txt. Done: it holds beta." },
  { reasoning: "after", content: "after the compaction" },
  { reasoning: "resumed", toolCalls: [{ name: "read_file", arguments: `{"path":"a.txt"}` }] },
  { content: "still beta" },
];

async function recordBodies(): Promise<string[]> {
  let bodies: string[] = [];
  await withController({
    script: SCRIPT,
    files: { "a.txt": "alpha\n", "b.txt": "two\n" },
    now: () => new Date("2026-12-01T08:00:00Z"),
    flags: { permissionMode: "yolo" },
    listen: false,
  }, async ({ sim, controller: first, home, ws, reboot }) => {
    assert.equal((await first.runTurn("edit a.txt")).subtype, "success");
    assert.equal((await first.runTurn("and now?")).subtype, "success");
    assert.equal((await first.runTurn("this one fails")).subtype, "error_during_execution");
    assert.equal(await first.compact(), true);
    assert.equal((await first.runTurn("after")).subtype, "success");
    await first.rename("golden");
    const second = await reboot();
    assert.equal((await second.runTurn("what is in a.txt?")).subtype, "success");
    const host = new URL(sim.url).host;
    bodies = sim.requests.map((request) => normalize(request.body, { ws, home, host }));
  });
  return bodies;
}

/** The tools array is the registry's frozen bytes (prefix_guard_test checks them); kept out of the fixture. */
function normalize(body: string, dirs: { ws: string; home: string; host: string }): string {
  const tools = `"tools":${builtinRegistry().toolsJson()}`;
  assert.ok(body.includes(tools), "the request carries the registry's tool bytes");
  return body.replace(tools, `"tools":"<TOOLS>"`).replaceAll(dirs.ws, "<WS>").replaceAll(dirs.home, "<HOME>")
    .replaceAll(dirs.host, "<SIM>")
    .replaceAll(JSON.stringify(Deno.build.os).slice(1, -1), "<OS>")
    .replaceAll(Deno.build.arch, "<ARCH>");
}

Deno.test("request bytes: a scripted session with tools, failure, compaction and resume sends the recorded bodies", async () => {
  const bodies = await recordBodies();
  assert.equal(bodies.length, SCRIPT.length);
  if (Deno.env.get("UPDATE_GOLDEN") === "1") {
    await Deno.writeTextFile(GOLDEN, JSON.stringify(bodies, null, 1) + "\n");
  }
  const golden: string[] = JSON.parse(await Deno.readTextFile(GOLDEN));
  assert.equal(golden.length, bodies.length);
  for (const [index, body] of bodies.entries()) assert.equal(body, golden[index], `request ${index + 1}`);
});
