import assert from "node:assert/strict";
import { join } from "node:path";
import type { ApprovalRequest } from "../../src/agent/events.ts";
import { approvalTitle } from "../../src/frontends/tui/approval_title.ts";
import { answer, calls, capability, withSubagents } from "../support/subagent_session.ts";

Deno.test("a child's approval card names the subagent that asks; the main agent's does not", async () => {
  const scripts = {
    parent: [
      calls(["write_file", { path: "own.txt", content: "mine\n" }]),
      calls(
        capability("task", { prompt: "write b.txt", description: "docs writer", write_paths: ["b.txt"] }),
      ),
      answer("all done"),
    ],
    "write b.txt": [calls(["write_file", { path: "b.txt", content: "B\n" }]), answer("wrote b")],
  };
  await withSubagents({ scripts, mode: "ask", headless: false }, async ({ ws, controller }) => {
    const asked: ApprovalRequest[] = [];
    controller.subscribe((event) => {
      if (event.type !== "approval_requested") return;
      asked.push(event.request);
      void controller.answerApproval(event.request.id, "allow_once");
    });
    assert.equal(
      (await controller.runTurn("write own.txt, then have a child write b.txt")).subtype,
      "success",
    );
    const byTool = asked.map((request) => [request.tool, request.agent ?? null]);
    assert.deepEqual(byTool, [["write_file", null], ["task", null], ["write_file", "docs writer"]]);
    assert.equal(await Deno.readTextFile(join(ws, "b.txt")), "B\n");
  });
});

Deno.test("approvalTitle() shows a model-written subagent label on one line, escaped", () => {
  assert.equal(approvalTitle({ tool: "bash" }), "Allow bash?");
  const title = approvalTitle({ tool: "bash", agent: "fix\nit\u001b[31m" });
  assert.ok(!title.includes("\n") && !title.includes("\u001b"), title);
  assert.match(title, /fix/);
});
