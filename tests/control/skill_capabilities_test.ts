/**
 * Skills in `use_capability` (CONTRACTS §2.2): `list` and `search` show each skill the model may use as a
 * `skill:<name>` entry of kind "skill" beside the proxied tools; `inspect` says how to call one. The tools
 * array and the system prompt are the bytes a session without those entries sends, and `/reload` tells a
 * new or changed skill on the tail of the next turn (the prefix never moves).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { type ControllerSession, withController } from "../support/controller_session.ts";
import { assertStablePrefix } from "../support/prefix_guard.ts";

type Message = { role: string; content: string };
type Entry = { id: string; kind: string; name: string; read_only: boolean; argument_names?: string[] };

const FILES = {
  ".claude/skills/deploy/SKILL.md":
    `---\nname: deploy\ndescription: Deploy the app to an environment\n---\nRun make deploy.\n`,
  ".reasonix/skills/secret-ritual.md":
    `---\ndescription: Only by hand\ninvocation: manual\n---\nDo the ritual.\n`,
};

function capability(args: Record<string, unknown>): ScriptedReply {
  return { reasoning: "look", toolCalls: [{ name: "use_capability", arguments: JSON.stringify(args) }] };
}

function withSkills(script: ScriptedReply[], body: (s: ControllerSession) => Promise<void>) {
  const now = () => new Date("2026-12-01T08:00:00Z");
  return withController(
    { script, files: FILES, flags: { permissionMode: "yolo" }, now, listen: false },
    body,
  );
}

function toolResults(sim: DeepSeekSim, index: number): string[] {
  return (sim.requests[index]!.json.messages as Message[]).filter((m) => m.role === "tool").map((m) =>
    m.content
  );
}

Deno.test("use_capability list/search/inspect show skills as kind skill, skill:<name>", async () => {
  await withSkills([
    capability({ action: "list", limit: 100 }),
    capability({ action: "search", query: "deploy environment" }),
    capability({ action: "inspect", capability_id: "skill:deploy" }),
    { content: "done" },
  ], async (s) => {
    assert.equal((await s.controller.runTurn("what can you do?")).subtype, "success");
    const [list, search, inspect] = toolResults(s.sim, 3).map((text) => JSON.parse(text));
    const skills = (list.capabilities as Entry[]).filter((entry) => entry.kind === "skill");
    const ids = skills.map((entry) => entry.id);
    assert.ok(ids.includes("skill:deploy") && ids.includes("skill:review"), ids.join(","));
    assert.ok(!ids.includes("skill:secret-ritual"), "a manual skill is not offered to the model");
    const deploy = skills.find((entry) => entry.id === "skill:deploy")!;
    assert.deepEqual([deploy.name, deploy.read_only], ["deploy", true]);
    assert.ok((list.capabilities as Entry[]).some((entry) => entry.id === "tool:read_skill"));
    const first = (search.capabilities as Entry[])[0]!;
    assert.equal(first.id, "skill:deploy");
    assert.deepEqual(first.argument_names, ["arguments"]);
    assert.equal(inspect.kind, "skill");
    assert.match(inspect.call, /arguments/);
    // Nothing provider-visible moved: the tools array and system prompt are the same on every request.
    assertStablePrefix(s.sim.requests.map((request) => request.body));
    const tools = s.sim.requests.map((request) => JSON.stringify(request.json.tools));
    assert.equal(new Set(tools).size, 1);
    assert.ok(!tools[0]!.includes("skill:deploy"), "no skill in the tool schema");
  });
});

Deno.test("/reload re-reads skills: a new one is told on the tail, listed, invocable; the prefix stays", async () => {
  await withSkills([
    { content: "one" },
    capability({ action: "list", limit: 100 }),
    { content: "two" },
  ], async (s) => {
    await s.controller.runTurn("hello");
    await Deno.mkdir(join(s.ws, ".reasonix/skills/fresh"), { recursive: true });
    await Deno.writeTextFile(
      join(s.ws, ".reasonix/skills/fresh/SKILL.md"),
      `---\ndescription: Added mid-session\n---\nFresh body.\n`,
    );
    const reloaded = await s.controller.submit("/reload");
    assert.equal(reloaded.kind, "command");
    assert.match(reloaded.kind === "command" ? reloaded.output.join("\n") : "", /Skills changed/);
    assert.ok(s.controller.commands.resolve("/fresh go").kind === "command", "/fresh is a command now");
    await s.controller.runTurn("and now?");
    const tail = (s.sim.requests[1]!.json.messages as Message[]).at(-1)!.content;
    assert.match(tail, /The skills available changed[^]*- fresh: Added mid-session/);
    const list = JSON.parse(toolResults(s.sim, 2)[0]!);
    assert.ok((list.capabilities as Entry[]).some((entry) => entry.id === "skill:fresh"));
    assertStablePrefix(s.sim.requests.map((request) => request.body));
    const again = await s.controller.submit("/reload");
    assert.doesNotMatch(again.kind === "command" ? again.output.join("\n") : "", /Skills changed/);
  });
});
