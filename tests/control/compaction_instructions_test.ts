/**
 * Instruction files after a compaction: re-read from disk, a changed or removed file reaches the model in
 * an update block after the digests while the system prompt (the cached prefix) stays byte for byte.
 */
import assert from "node:assert/strict";
import { bootController } from "../../src/control/boot.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { INSTRUCTIONS_OPEN } from "../../src/agent/compaction.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";

Deno.test("a compaction re-reads instruction files and tells the model what changed", async () => {
  const script = [{ content: "hi" }, { content: "Goal: greet." }, { content: "ok" }, {
    content: "Goal: more.",
  }];
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "AGENTS.md": "Always answer in haiku.\n" });
  const controller = await bootController({
    cwd: ws,
    headless: true,
    env: {},
    paths: resolvePaths({ REASONIX_HOME: home }),
  });
  try {
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
  } finally {
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
