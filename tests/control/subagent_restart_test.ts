/**
 * Subagent refs after a restart, on the real assembly against the simulator: a resumed session reads its
 * children's answers and continues them by the refs its history holds (found through the children's session
 * files, under the same rules as before the restart), and another session cannot use those refs.
 */
import assert from "node:assert/strict";
import { basename, dirname } from "node:path";
import type { RecordedRequest } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";
import {
  answer,
  calls,
  capability,
  conversationOf,
  isChild,
  lastToolResult,
  routed,
  type Step,
} from "../support/subagent_session.ts";
import { hostEnv } from "../support/host_env.ts";

type Message = { role: string; content: string };

const LONG = "x".repeat(20_000) + "END";

/** The first ref a tool result of this conversation named. */
function firstRef(request: RecordedRequest): string {
  const tools = (request.json.messages as Message[]).filter((m) => m.role === "tool");
  for (const tool of tools) {
    const found = /ref "(subagent:[\w-]+)"/.exec(tool.content);
    if (found) return found[1]!;
  }
  throw new Error("no ref in this conversation");
}

/** A child by its task prompt; a parent by the first turn it was given (`A …`, `B …`). */
function byTurn(request: RecordedRequest): string {
  if (isChild(request)) return conversationOf(request);
  const first = (request.json.messages as Message[]).find((m) =>
    m.role === "user" && /^[AB] /.test(m.content)
  );
  return first?.content.slice(0, 1) ?? "parent";
}

/** Tool messages of the last request of one conversation (as `byTurn` names it). */
function toolResults(requests: readonly RecordedRequest[], conversation: string): string[] {
  const request = requests.findLast((r) => byTurn(r) === conversation);
  return ((request?.json.messages ?? []) as Message[]).filter((m) => m.role === "tool").map((m) => m.content);
}

const options = {
  flags: { permissionMode: "auto" },
  env: hostEnv(),
  files: { "a.txt": "alpha\n" },
};

Deno.test("subagents after a restart: the resumed session reads and continues its child by the old ref", async () => {
  const scripts: Record<string, Step[]> = {
    A: [
      calls(capability("task", { prompt: "count the files", write_paths: ["a.txt"] })),
      answer("started"),
      // The process restarts here; the history still holds the ref.
      (request) =>
        calls(capability("read_subagent_result", { ref: firstRef(request), offset_bytes: 16_384 })),
      (request) =>
        calls(capability("read_only_skill", {
          name: "explore",
          arguments: "write b.txt too",
          continue_from: firstRef(request),
        })),
      (request) => calls(capability("task", { prompt: "now name them", continue_from: firstRef(request) })),
      answer("done"),
    ],
    "count the files": [
      answer(LONG),
      calls(["write_file", { path: "b.txt", content: "beta\n" }]),
      answer("It is a.txt."),
    ],
  };
  await withController({ ...options, script: routed(scripts, byTurn) }, async (s) => {
    assert.equal((await s.controller.runTurn("A go")).subtype, "success");
    const before = s.controller.sessionId;
    await s.reboot();
    assert.equal(s.controller.sessionId, before, "the same session resumed");
    const childId = firstRef(s.sim.requests.findLast((r) => byTurn(r) === "A")!).slice("subagent:".length);
    const tree = JSON.stringify(await s.controller.submit("/tree"));
    assert.match(tree, new RegExp(`subagents:.*${childId} · done · writer · count the files`), tree);
    const shown = JSON.stringify(await s.controller.submit(`/agents show ${childId}`));
    assert.match(shown, /x{100}/, "its transcript reads after the restart");
    assert.equal((await s.controller.runTurn("A again")).subtype, "success");

    const [, page, readOnly, continued] = toolResults(s.sim.requests, "A");
    assert.equal(page, `${"x".repeat(3_616)}END\n[end]`, "the old ref pages the child's answer");
    assert.match(readOnly!, /Cannot continue "subagent:[\w-]+" read-only: it was a writer/);
    assert.match(continued!, /^It is a\.txt\./);

    const child = s.sim.requests.filter((r) => conversationOf(r) === "count the files");
    assert.equal(child.length, 3, "the child ran once before the restart and twice (one turn) after it");
    const [first, second] = child.map((r) => r.json.messages as Message[]);
    assert.deepEqual(second!.slice(0, first!.length), first, "its stored conversation is the prefix");
    assert.equal(second!.at(-1)!.content, "now name them");
    const [refused] = toolResults(s.sim.requests, "count the files");
    assert.match(refused!, /path_outside_claim/, "its write_paths still hold after the restart");
    await assert.rejects(Deno.stat(`${s.ws}/b.txt`));
  });
});

Deno.test("subagents after a restart: another session's child ref reads nothing and continues nothing", async () => {
  const scripts: Record<string, Step[]> = {
    A: [calls(capability("read_only_task", { prompt: "look around" })), answer("started")],
    "look around": [answer("The repository holds a.txt only.")],
  };
  let foreign = "";
  let dressed = "";
  const refuse = (ref: string): Step[] => [
    calls(
      capability("read_subagent_result", { ref }),
      capability("task", { prompt: "more", continue_from: ref }),
    ),
    calls(capability("task", { prompt: "more", continue_from: dressed })),
    answer("refused"),
  ];
  await withController({ ...options, script: routed(scripts, byTurn) }, async (s) => {
    assert.equal((await s.controller.runTurn("A go")).subtype, "success");
    const ownerRequest = s.sim.requests.findLast((r) => byTurn(r) === "A")!;
    foreign = firstRef(ownerRequest);
    const childFile = `${dirname(s.controller.sessionFile)}/${foreign.slice("subagent:".length)}.jsonl`;
    dressed = `subagent:../${basename(dirname(childFile))}/${basename(childFile, ".jsonl")}`;
    scripts.B = refuse(foreign);
    await s.reboot();
    const other = await s.boot();
    try {
      assert.equal((await other.runTurn("B use the other session's child")).subtype, "success");
    } finally {
      await other.close();
    }
    const [read, continued, pathRef] = toolResults(s.sim.requests, "B");
    assert.match(read!, /^Error \[subagent\.unknown_ref\]: No subagent result/);
    assert.match(continued!, /^Error \[subagent\.unknown_ref\]: Cannot continue/);
    assert.match(pathRef!, /^Error \[subagent\.unknown_ref\]: Cannot continue/);
    assert.doesNotMatch(JSON.stringify(toolResults(s.sim.requests, "B")), /a\.txt only/);
    assert.equal(s.sim.requests.filter((r) => conversationOf(r) === "look around").length, 1);
    assert.match(lastToolResult(ownerRequest), /The repository holds a\.txt only\./);
  });
});

Deno.test("subagents after a restart: a continued child continues its own child by the ref it holds", async () => {
  const scripts: Record<string, Step[]> = {
    A: [
      calls(capability("task", { prompt: "delegate", write_paths: ["a.txt"] })),
      answer("started"),
      (request) => calls(capability("task", { prompt: "ask it again", continue_from: firstRef(request) })),
      answer("done"),
    ],
    delegate: [
      calls(capability("read_only_task", { prompt: "grandchild" })),
      answer("the grandchild said: one"),
      (request) => calls(capability("task", { prompt: "and then?", continue_from: firstRef(request) })),
      (request) => answer(`the grandchild now says: ${lastToolResult(request).split("\n")[0]}`),
    ],
    grandchild: [answer("one"), answer("two")],
  };
  await withController({ ...options, script: routed(scripts, byTurn) }, async (s) => {
    assert.equal((await s.controller.runTurn("A go")).subtype, "success");
    await s.reboot();
    assert.equal((await s.controller.runTurn("A again")).subtype, "success");
    const continued = toolResults(s.sim.requests, "A").at(-1);
    assert.match(continued!, /^the grandchild now says: two/);
    assert.equal(s.sim.requests.filter((r) => conversationOf(r) === "grandchild").length, 2);
  });
});
