/** `/context`: the window's parts and the next snip/compaction points, from a real session. */
import assert from "node:assert/strict";
import { defaultCommands } from "../../src/control/commands/builtin.ts";
import { contextParts } from "../../src/control/context_report.ts";
import type { CommandContext } from "../../src/control/commands/registry.ts";
import { withController } from "../support/controller_session.ts";

Deno.test("contextParts() splits the instruction files off the system prompt and counts tool results", () => {
  const parts = contextParts([
    {
      role: "system",
      content: `base prompt\n\n# Instructions\n\n## AGENTS.md (project)\n\n${"rule ".repeat(400)}`,
    },
    { role: "user", content: "hi" },
    { role: "tool", tool_call_id: "a", name: "ls", content: "x".repeat(4000) },
  ], "[]");
  const by = Object.fromEntries(parts.map((p) => [p.name, p.tokens]));
  assert.ok(by.instructions! > 500 && by.system! < 50);
  assert.ok(by.tool_results! >= 1000);
  assert.equal(by.digests, 0);
});

Deno.test("/context prints the parts with their share and the next snip and compaction", async () => {
  await withController({
    script: [{ content: "hello there" }],
    extraToml: "[model_overrides.deepseek-flash]\ncontext_window = 100000\n",
    files: { "AGENTS.md": "Always answer briefly.\n" },
    listen: false,
  }, async ({ controller }) => {
    const printed: string[] = [];
    const ctx: CommandContext = { host: controller, print: (text) => printed.push(text), quit: () => {} };
    await controller.runTurn("hi");
    await defaultCommands().dispatch(ctx, "/context");
    const text = printed.join("\n");
    for (
      const label of ["System prompt", "Tool schemas", "Instruction files", "Conversation", "Tool results"]
    ) {
      assert.match(text, new RegExp(`${label}\\s+~\\d+ \\(\\d+\\.\\d%\\)`));
    }
    assert.match(text, /Next snip at\s+~60000 \(60\.0%\)/);
    assert.match(text, /Next compaction at\s+~80000 \(80\.0%\)/);
    assert.match(text, /Forced compaction at\s+~90000 \(90\.0%\)/);
    const report = controller.contextReport();
    const instructions = report.parts.find((p) => p.name === "instructions")!;
    assert.ok(instructions.tokens > 0, "AGENTS.md is counted as instructions");
  });
});
