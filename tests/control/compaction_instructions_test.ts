/**
 * Instruction files after a compaction: re-read from disk, a changed or removed file reaches the model in
 * an update block after the digests while the system prompt (the cached prefix) stays byte for byte.
 */
import assert from "node:assert/strict";
import { INSTRUCTIONS_OPEN } from "../../src/agent/compaction.ts";
import { withController } from "../support/controller_session.ts";

Deno.test("a compaction re-reads instruction files and tells the model what changed", async () => {
  const script = [{ content: "hi" }, { content: "Goal: greet." }, { content: "ok" }, {
    content: "Goal: more.",
  }];
  await withController(
    { script, files: { "AGENTS.md": "Always answer in haiku.\n" }, listen: false },
    async ({ controller, ws }) => {
      await controller.runTurn("hello");
      const system = controller.history()[0]!.content;
      assert.ok(String(system).includes("Always answer in haiku."));
      assert.equal(await controller.compact(), true);
      assert.ok(
        !controller.history().some((m) => String(m.content).startsWith(INSTRUCTIONS_OPEN)),
        "unchanged",
      );
      await Deno.writeTextFile(`${ws}/AGENTS.md`, "Always answer in limericks.\n");
      await controller.runTurn("again");
      assert.equal(await controller.compact(), true);
      const history = controller.history();
      assert.equal(history[0]!.content, system, "the system prompt is kept byte for byte");
      const update = history.find((m) => String(m.content).startsWith(INSTRUCTIONS_OPEN));
      assert.ok(update, "an update block");
      assert.match(String(update.content), /## workspace\/AGENTS\.md\n\nAlways answer in limericks\./);
    },
  );
});
