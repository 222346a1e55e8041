/**
 * `task(continue_from=ref)` on the real assembly against the simulator: a finished child's own session takes
 * the new prompt as its next turn (its stored prefix and first turn are the start of the request), the answer
 * comes back under the same ref, and a ref this session did not get from a child is refused.
 */
import assert from "node:assert/strict";
import {
  answer,
  calls,
  capability,
  conversationOf,
  lastToolResult,
  subagentEvents,
  withSubagents,
} from "../support/subagent_session.ts";

type Message = { role: string; content: string };

function refIn(text: string): string {
  return /(subagent:[\w-]+)/.exec(text)![1]!;
}

Deno.test("task continue_from: the finished child's session continues with the new prompt", async () => {
  await withSubagents({
    scripts: {
      parent: [
        calls(capability("task", { prompt: "count the files", write_paths: ["a.txt"] })),
        (request) =>
          calls(
            capability("task", { prompt: "now name them", continue_from: refIn(lastToolResult(request)) }),
          ),
        calls(capability("task", { prompt: "again", continue_from: "subagent:not-mine" })),
        answer("done"),
      ],
      "count the files": [answer("There is 1 file."), answer("It is a.txt.")],
    },
  }, async (s) => {
    const outcome = await s.controller.runTurn("go");
    assert.equal(outcome.subtype, "success");
    const child = s.sim.requests.filter((r) => conversationOf(r) === "count the files");
    assert.equal(child.length, 2);
    const [first, second] = child.map((r) => r.json.messages as Message[]);
    assert.deepEqual(second!.slice(0, first!.length), first, "the child's stored conversation is the prefix");
    assert.deepEqual(second!.slice(-2).map((m) => m.content), ["There is 1 file.", "now name them"]);
    const parent = s.sim.requests.filter((r) => conversationOf(r) === "parent");
    const results = parent.map(lastToolResult);
    assert.equal(refIn(results[1]!), refIn(results[2]!), "the same child, the same ref");
    assert.match(results[2]!, /^It is a\.txt\./);
    assert.match(results[3]!, /Cannot continue "subagent:not-mine"/);
    const spent = subagentEvents(s.events).filter((e) => e.phase === "spent").map((e) => e.spent?.requests);
    assert.deepEqual(spent, [1, 1], "a continued child counts only its new run's request");
    assert.equal(s.controller.totals().subagentCalls, 2);
  });
});

Deno.test("skill:<name> with continue_from continues that subagent skill's run (run_skill)", async () => {
  const skill = (args: Record<string, unknown>): [string, Record<string, unknown>] => [
    "use_capability",
    { action: "call", capability_id: "skill:explore", arguments: args },
  ];
  await withSubagents({
    scripts: {
      parent: [
        calls(
          skill({ arguments: "map the tests" }),
          capability("run_skill", { name: "explore", arguments: "x" }),
        ),
        (request) => {
          const first = (request.json.messages as Message[]).filter((m) => m.role === "tool")[1]!.content;
          return calls(skill({ arguments: "and the docs?", continue_from: refIn(first) }));
        },
        answer("done"),
      ],
      "x": [answer("tests/ holds the tests."), answer("docs/ holds the docs.")],
    },
  }, async (s) => {
    assert.equal((await s.controller.runTurn("go")).subtype, "success");
    const child = s.sim.requests.filter((r) => conversationOf(r) === "x");
    assert.equal(child.length, 2);
    const second = child[1]!.json.messages as Message[];
    assert.match(second[0]!.content, /explore/i, "the skill's body stays the child's system prompt");
    assert.deepEqual(second.slice(-2).map((m) => m.content), ["tests/ holds the tests.", "and the docs?"]);
    const last = s.sim.requests.findLast((r) => conversationOf(r) === "parent")!;
    assert.match(lastToolResult(last), /^docs\/ holds the docs\./);
  });
});

Deno.test("read_only_skill cannot reopen a writer child: continue_from of a task writer is refused", async () => {
  await withSubagents({
    scripts: {
      parent: [
        calls(capability("task", { prompt: "write it", write_paths: ["a.txt"] })),
        (request) =>
          calls(
            capability("read_only_skill", {
              name: "explore",
              arguments: "now write b.txt too",
              continue_from: refIn(lastToolResult(request)),
            }),
          ),
        answer("done"),
      ],
      "write it": [answer("Written.")],
    },
  }, async (s) => {
    assert.equal((await s.controller.runTurn("go")).subtype, "success");
    const parent = s.sim.requests.filter((r) => conversationOf(r) === "parent");
    assert.match(lastToolResult(parent[2]!), /Cannot continue "subagent:[\w-]+" read-only: it was a writer/);
    const child = s.sim.requests.filter((r) => conversationOf(r) === "write it");
    assert.equal(child.length, 1, "the writer child never ran again");
  });
});
