/**
 * Effect tests for `use_capability`: the real assembly (boot → Controller → loop → dispatch → gate →
 * request body) against the simulator. A proxied call must take the direct call's path, and the
 * provider-visible prefix must not move because of it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bootController, type ResumeRequest } from "../../src/control/boot.ts";
import type { ApprovalRequest, ReasonixEvent } from "../../src/control/events.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { checkpointDirFor, CheckpointStore } from "../../src/session/checkpoints.ts";
import { builtinRegistry } from "../../src/tool/builtin/mod.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { assertPrependOnly, assertStablePrefix, splitBody } from "../support/prefix_guard.ts";

type Controller = Awaited<ReturnType<typeof bootController>>;

function proxied(reasoning: string, args: Record<string, unknown>): ScriptedReply {
  return { reasoning, toolCalls: [{ name: "use_capability", arguments: JSON.stringify(args) }] };
}

const LIST = proxied("what is there", { action: "list" });
const MULTI_EDIT = proxied("edit", {
  action: "call",
  capability_id: "tool:multi_edit",
  arguments: { path: "docs/a.md", edits: [{ old_string: "alpha", new_string: "beta" }] },
});
const DONE: ScriptedReply = { reasoning: "done", content: "done" };

interface Setup {
  script: ScriptedReply[];
  extraToml?: string;
  mode?: string;
  headless?: boolean;
}

interface Session {
  sim: DeepSeekSim;
  ws: string;
  boot(resume?: ResumeRequest): Promise<Controller>;
}

async function withSession(setup: Setup, body: (session: Session) => Promise<void>) {
  const sim = await DeepSeekSim.start({ script: setup.script });
  const home = await makeHome({
    simUrl: sim.url,
    ...(setup.extraToml ? { extraToml: setup.extraToml } : {}),
  });
  const ws = await makeWorkspace({ "docs/a.md": "alpha\n", "src/b.ts": "alpha\n" });
  const opened: Controller[] = [];
  const boot = async (resume?: ResumeRequest) => {
    const controller = await bootController({
      cwd: ws,
      headless: setup.headless ?? true,
      env: {},
      paths: resolvePaths({ REASONIX_HOME: home }),
      flags: setup.mode ? { permissionMode: setup.mode } : {},
      ...(resume ? { resume } : {}),
    });
    opened.push(controller);
    return controller;
  };
  try {
    await body({ sim, ws, boot });
  } finally {
    for (const controller of opened) await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
}

function toolMessages(sim: DeepSeekSim): { content: string; name: string }[] {
  const messages = sim.requests.at(-1)!.json.messages as { role: string; content: string; name: string }[];
  return messages.filter((message) => message.role === "tool");
}

Deno.test("proxy: the tools array and system prompt stay byte-identical across turns, a proxied call and a restart", async () => {
  const script = [LIST, MULTI_EDIT, DONE, { content: "again" }];
  await withSession({ script, mode: "yolo" }, async ({ sim, boot }) => {
    const first = await boot();
    assert.equal((await first.runTurn("edit the doc")).subtype, "success");
    await first.close();
    const second = await boot({ kind: "latest" });
    assert.equal((await second.runTurn("and now?")).subtype, "success");
    const bodies = sim.requests.map((request) => request.body);
    assert.equal(bodies.length, 4);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
    assert.equal(splitBody(bodies[0]!).tools, `"tools":${builtinRegistry().toolsJson()}`);
    const names = (JSON.parse(builtinRegistry().toolsJson()) as { function: { name: string } }[])
      .map((tool) => tool.function.name);
    assert.deepEqual(names, [
      "ask",
      "bash",
      "edit_file",
      "grep",
      "read_file",
      "todo_write",
      "use_capability",
      "write_file",
    ]);
    assert.match(splitBody(bodies[0]!).system, /# More tools[\s\S]*multi_edit\(path\*, edits\*\)/);
  });
});

Deno.test("proxy: list answers a sorted catalogue whose version is the same in every session", async () => {
  const script = [LIST, DONE, LIST, DONE];
  await withSession({ script }, async ({ sim, boot }) => {
    await (await boot()).runTurn("list");
    await (await boot()).runTurn("list again");
    const first = JSON.parse(toolMessages(sim)[0]!.content);
    const lists = sim.requests.filter((_, index) => index === 1 || index === 3)
      .map((request) => (request.json.messages as { role: string; content: string }[]).at(-1)!.content);
    assert.equal(lists[0], lists[1], "the list result is byte-identical across sessions");
    const ids = first.capabilities.map((capability: { id: string }) => capability.id);
    assert.deepEqual(ids, [...ids].sort());
    assert.ok(ids.includes("tool:multi_edit") && ids.includes("tool:glob"));
    assert.ok(!ids.includes("tool:read_file"), "direct tools are not in the catalogue");
    assert.match(first.catalog_version, /^[0-9a-f]{12}$/);
    assert.deepEqual(first.servers, []);
    assert.equal(first.next_cursor, null);
    const entry = first.capabilities.find((capability: { id: string }) =>
      capability.id === "tool:multi_edit"
    );
    assert.deepEqual(Object.keys(entry), ["id", "kind", "name", "status", "read_only", "description"]);
    assert.equal(entry.read_only, false);
  });
});

Deno.test("proxy: a proxied writer asks for approval with the inner tool's card and preview", async () => {
  await withSession({ script: [MULTI_EDIT, DONE], headless: false }, async ({ sim, ws, boot }) => {
    const controller = await boot();
    const events: ReasonixEvent[] = [];
    const cards: ApprovalRequest[] = [];
    controller.subscribe((event) => {
      events.push(event);
      if (event.type !== "approval_requested") return;
      cards.push(event.request);
      queueMicrotask(() => void controller.answerApproval(event.request.id, "allow_once"));
    });
    assert.equal((await controller.runTurn("edit the doc")).subtype, "success");
    assert.equal(cards.length, 1);
    assert.equal(cards[0]!.tool, "multi_edit");
    assert.equal(cards[0]!.subject, "docs/a.md");
    assert.equal(cards[0]!.preview?.newText, "beta\n");
    assert.equal(await Deno.readTextFile(join(ws, "docs/a.md")), "beta\n");
    const call = events.find((event) => event.type === "tool_call");
    assert.deepEqual(call && { name: call.name, readOnly: call.readOnly }, {
      name: "multi_edit",
      readOnly: false,
    });
    const result = events.find((event) => event.type === "tool_result");
    assert.equal(result?.type === "tool_result" && result.data?.kind, "diff");
    assert.equal(toolMessages(sim)[0]!.name, "use_capability", "the tool message answers the call as made");
    const store = new CheckpointStore(checkpointDirFor(controller.sessionFile));
    const files = (await store.list()).flatMap((checkpoint) => checkpoint.files.map((file) => file.path));
    assert.deepEqual(files, [join(ws, "docs/a.md")], "the proxied writer is checkpointed");
  });
});

Deno.test("proxy: a headless proxied writer is refused like a direct one, and an Edit(docs/**) rule lets it run", async () => {
  const other = proxied("edit src", {
    action: "call",
    capability_id: "tool:multi_edit",
    arguments: { path: "src/b.ts", edits: [{ old_string: "alpha", new_string: "beta" }] },
  });
  const extraToml = `[permissions]\nallow = ["Edit(docs/**)"]\n`;
  await withSession({ script: [MULTI_EDIT, other, DONE], extraToml }, async ({ sim, ws, boot }) => {
    assert.equal((await (await boot()).runTurn("edit both")).subtype, "success");
    assert.equal(await Deno.readTextFile(join(ws, "docs/a.md")), "beta\n");
    assert.equal(await Deno.readTextFile(join(ws, "src/b.ts")), "alpha\n");
    const [docs, src] = toolMessages(sim);
    assert.doesNotMatch(docs!.content, /^Error/);
    assert.match(src!.content, /^Error \[permission\.needs_approval\]: Not run \(multi_edit\)/);
  });
});

Deno.test("proxy: bad arguments come back naming the argument and the tool's schema summary", async () => {
  const bad = proxied("glob", { action: "call", capability_id: "tool:glob", arguments: { patern: "*.md" } });
  await withSession({ script: [bad, DONE] }, async ({ sim, boot }) => {
    await (await boot()).runTurn("find docs");
    const [message] = toolMessages(sim);
    assert.match(message!.content, /^Error \[tool\.invalid_args\]: Invalid arguments for "glob":/);
    assert.match(message!.content, /"pattern": expected string, received nothing/);
    assert.match(
      message!.content,
      /Arguments of "glob" \(\* = required\): path \(string\), pattern\* \(string\)/,
    );
  });
});

Deno.test("proxy: a tool [tools].enabled leaves out is neither listed, named nor callable", async () => {
  const glob = proxied("glob", {
    action: "call",
    capability_id: "tool:glob",
    arguments: { pattern: "*.md" },
  });
  const extraToml = `[tools]\nenabled = ["read_file", "ls"]\n`;
  await withSession({ script: [LIST, glob, DONE], extraToml }, async ({ sim, boot }) => {
    await (await boot()).runTurn("find docs");
    const [list, call] = toolMessages(sim);
    const ids = JSON.parse(list!.content).capabilities.map((capability: { id: string }) => capability.id);
    assert.deepEqual(
      ids,
      ["tool:ls", "tool:submit_plan", "tool:update_goal"],
      "plan mode's way out and goal mode's report are never filtered",
    );
    assert.match(call!.content, /^Error \[capability\.unknown\]: There is no capability "tool:glob"/);
    const body = sim.requests[0]!.body;
    const tools =
      (JSON.parse(splitBody(body).tools.slice('"tools":'.length)) as { function: { name: string } }[])
        .map((tool) => tool.function.name);
    assert.deepEqual(tools, ["ask", "read_file", "use_capability"], "ask and use_capability always stay");
    assert.doesNotMatch(splitBody(body).system, /glob\(/);
  });
});

Deno.test("proxy: a resumed session replays a proxied call as the inner tool's card", async () => {
  await withSession({ script: [MULTI_EDIT, DONE], mode: "yolo" }, async ({ boot }) => {
    await (await boot()).runTurn("edit the doc");
    const events = (await boot({ kind: "latest" })).snapshot();
    const call = events.find((event) => event.type === "tool_call");
    const result = events.find((event) => event.type === "tool_result");
    assert.equal(call?.type === "tool_call" && call.name, "multi_edit");
    assert.match(call?.type === "tool_call" ? call.arguments : "", /"path":"docs\/a.md"/);
    assert.equal(result?.type === "tool_result" && result.name, "multi_edit");
  });
});

Deno.test("proxy: a deny rule refuses a proxied call even in yolo mode, without asking", async () => {
  const extraToml = `[permissions]\ndeny = ["Edit(docs/**)"]\n`;
  await withSession({ script: [MULTI_EDIT, DONE], extraToml, mode: "yolo" }, async ({ sim, ws, boot }) => {
    assert.equal((await (await boot()).runTurn("edit the doc")).subtype, "success");
    assert.equal(await Deno.readTextFile(join(ws, "docs/a.md")), "alpha\n");
    assert.match(
      toolMessages(sim)[0]!.content,
      /^Error \[permission\.denied\]: Not run \(multi_edit\): .*Edit\(docs\/\*\*\)/,
    );
  });
});
