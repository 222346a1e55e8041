/**
 * Effect tests for conversation branches: the real assembly against the simulator, asserting on the
 * recorded request bytes and the simulator's cache figures.
 */
import assert from "node:assert/strict";
import { defaultCommands } from "../../src/control/commands/builtin.ts";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { type Controller, type ControllerSession, withController } from "../support/controller_session.ts";

function withSession(script: ScriptedReply[], body: (f: ControllerSession) => Promise<void>) {
  const files = { "a.txt": "alpha\n" };
  return withController({ script, files, flags: { permissionMode: "yolo" }, listen: false }, body);
}

async function turn(controller: Controller, text: string): Promise<void> {
  const outcome = await controller.runTurn(text);
  assert.equal(outcome.subtype, "success", outcome.result);
}

/** The raw bytes of a request body up to and including its first `count` messages. */
function prefixBytes(body: string, json: { messages: unknown[] }, count: number): string {
  const last = JSON.stringify(json.messages[count - 1]);
  const end = body.indexOf(last);
  assert.ok(end > 0, "the message is serialised as JSON.stringify renders it");
  return body.slice(0, end + last.length);
}

const REPLIES: ScriptedReply[] = [
  { reasoning: "greet", content: "hello" },
  { reasoning: "b", content: "on b" },
  { reasoning: "main", content: "on main" },
  { reasoning: "again", content: "b again" },
];

Deno.test("branches: a branch and its parent replay the shared part byte for byte and hit the cache", async () => {
  await withSession(REPLIES, async ({ sim, controller }) => {
    await turn(controller, "hi");
    const shared = controller.history().length;
    assert.equal(await controller.branches.fork("b"), "b");
    await turn(controller, "take path b");
    assert.deepEqual(await controller.branches.switchTo("main"), { name: "main", turns: 1 });
    assert.equal(controller.history().length, shared);
    await turn(controller, "take the main path");
    const [, onB, onMain] = sim.requests;
    assert.equal(sim.requests.length, 3);
    assert.deepEqual(onMain!.json.messages.slice(0, shared), onB!.json.messages.slice(0, shared));
    assert.equal(prefixBytes(onMain!.body, onMain!.json, shared), prefixBytes(onB!.body, onB!.json, shared));
    assert.notDeepEqual(onMain!.json.messages[shared], onB!.json.messages[shared]);
    const hit = onMain!.usage!.prompt_cache_hit_tokens;
    assert.ok(hit > 0, "the first request on main hits the cached shared prefix");
    assert.ok(
      hit >= onB!.usage!.prompt_cache_hit_tokens,
      "it hits at least what the branch's first request hit",
    );
    assert.ok(onMain!.usage!.prompt_cache_miss_tokens < hit, "only the new tail misses");
  });
});

Deno.test("branches: a resumed session continues on its current branch and /tree still shows them", async () => {
  await withSession(REPLIES, async ({ sim, controller, reboot }) => {
    await turn(controller, "hi");
    await controller.branches.fork("b");
    await turn(controller, "take path b");
    const onB = controller.history().map((m) => JSON.stringify(m));
    await controller.branches.switchTo("main");
    await turn(controller, "take the main path");
    const resumed = await reboot();
    const list = resumed.branches.list();
    assert.deepEqual(
      list.map(({ name, current, parent, forkTurn, turns, lastPrompt }) => ({
        name,
        current,
        parent,
        forkTurn,
        turns,
        lastPrompt,
      })),
      [
        {
          name: "main",
          current: true,
          parent: null,
          forkTurn: 0,
          turns: 2,
          lastPrompt: "take the main path",
        },
        { name: "b", current: false, parent: "main", forkTurn: 1, turns: 2, lastPrompt: "take path b" },
      ],
    );
    await resumed.branches.switchTo("b");
    assert.deepEqual(resumed.history().map((m) => JSON.stringify(m)), onB);
    await turn(resumed, "more on b");
    const last = sim.requests.at(-1)!;
    assert.deepEqual(last.json.messages.slice(0, onB.length).map((m: unknown) => JSON.stringify(m)), onB);
    assert.match(last.json.messages.at(-1).content, /files on disk were not switched/);
  });
});

Deno.test("branches: a conversation rewind keeps the abandoned turns as a branch", async () => {
  await withSession(REPLIES, async ({ controller }) => {
    await turn(controller, "hi");
    await turn(controller, "second");
    const before = controller.history().map((m) => JSON.stringify(m));
    const outcome = await controller.rewind({ turn: 2, scope: "conversation" });
    assert.equal(outcome.status, "done");
    const list = controller.branches.list();
    assert.deepEqual(list.map((b) => [b.name, b.current, b.turns, b.forkTurn]), [
      ["main", true, 1, 0],
      ["before-rewind-1", false, 2, 1],
    ]);
    await controller.branches.switchTo("before-rewind-1");
    assert.deepEqual(controller.history().map((m) => JSON.stringify(m)), before);
  });
});

Deno.test("/branch, /switch and /tree print the branches and refuse bad names", async () => {
  await withSession(REPLIES, async ({ controller }) => {
    const registry = defaultCommands();
    const printed: string[] = [];
    const ctx = { host: controller, print: (text: string) => printed.push(text), quit() {} };
    await turn(controller, "hi");
    await registry.dispatch(ctx, "/branch idea");
    await registry.dispatch(ctx, "/branch idea");
    await registry.dispatch(ctx, "/branch no spaces");
    await registry.dispatch(ctx, "/switch");
    await registry.dispatch(ctx, "/switch nowhere");
    await registry.dispatch(ctx, "/switch main");
    await registry.dispatch(ctx, "/switch main");
    await registry.dispatch(ctx, "/tree");
    assert.deepEqual(printed, [
      "Now on branch idea; /switch goes back. Files on disk are not switched with branches (use /rewind for code).",
      'Cannot create branch "idea": a branch with that name exists',
      'Cannot create branch: "no spaces" is not a branch name: use up to 40 letters, digits, ".", "_" or "-"',
      "  main · 1 turn · last: hi\n*   idea · 1 turn · from main at turn 1 · last: hi\n\n/switch <name> moves there",
      'Cannot switch to "nowhere": no such branch (have: main, idea)',
      "Switched to branch main (1 turn). Files on disk are not switched with branches (use /rewind for code).",
      "Already on branch main",
      "* main · 1 turn · last: hi\n    idea · 1 turn · from main at turn 1 · last: hi",
    ]);
  });
});
