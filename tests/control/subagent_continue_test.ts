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
  withSubagents,
} from "../support/subagent_session.ts";

type Message = { role: string; content: string };

function refIn(text: string): string {
  return /ref "(subagent:[^"]+)"/.exec(text)![1]!;
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
  });
});
