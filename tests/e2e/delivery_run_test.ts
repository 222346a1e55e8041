/**
 * `reasonix run` with `[agent] delivery = "verify"` against the simulator: the face shows each refusal
 * as a warning, and a turn whose delivery stayed unverified ends with `delivery.unverified` in the JSON
 * result and exit status 1, the model's answer kept as the result.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

function call(name: string, args: Record<string, unknown>): ScriptedReply {
  return { reasoning: "call", toolCalls: [{ name, arguments: JSON.stringify(args) }] };
}

const DONE: ScriptedReply = { reasoning: "answer", content: "Done: b.txt is added." };

Deno.test("reasonix run: verified delivery refuses on the tail, warns, and ends an unverified turn as delivery.unverified", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      call("write_file", { path: "b.txt", content: "b\n" }),
      call("todo_write", { todos: [{ content: "Add b.txt", status: "in_progress" }] }),
      call("write_file", { path: "b.txt", content: "b\n" }),
      DONE,
      DONE,
      DONE,
    ],
  });
  const home = await makeHome({ simUrl: sim.url, extraToml: `[agent]\ndelivery = "verify"\n` });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  try {
    const run = await runCli(
      ["run", "--permission-mode", "auto", "--output-format", "json", "add b.txt"],
      { home, cwd: ws },
    );
    assert.equal(run.code, 1, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.subtype, "error_during_execution");
    assert.equal(result.result, "Done: b.txt is added.");
    assert.equal(result.error.code, "delivery.unverified");
    assert.equal(await Deno.readTextFile(join(ws, "b.txt")), "b\n");
    const warned = run.stderr.split("\n").filter((line) => line.startsWith("warning: Verified delivery"));
    assert.deepEqual(warned, [
      `warning: Verified delivery refused "write_file": nothing may change before a todo_write acceptance list exists`,
      "warning: Verified delivery refused the final answer (1/2): no verification command exited 0 after the last change",
      "warning: Verified delivery refused the final answer (2/2): no verification command exited 0 after the last change",
    ]);
    assert.match(run.stderr, /warning: Delivery was not verified: no verification command exited 0/);
    assert.equal(sim.requests.length, 6);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
