import assert from "node:assert/strict";
import type { bootController } from "../../src/control/boot.ts";
import { reasoningLanguageNote } from "../../src/control/reasoning_language.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";

async function withBoot(
  options: { script: ScriptedReply[]; toml?: string; yolo?: boolean },
  body: (controller: Awaited<ReturnType<typeof bootController>>, sim: DeepSeekSim) => Promise<void>,
) {
  await withController({
    script: options.script,
    files: options.toml ? { "reasonix.toml": options.toml } : {},
    headless: false,
    listen: false,
    ...(options.yolo ? { flags: { permissionMode: "yolo" } } : {}),
  }, async ({ sim, controller }) => {
    await body(controller, sim);
  });
}

Deno.test("the Controller's StatusPort reports effort, context window and the resolved [ui] settings", async () => {
  const toml =
    `language = "zh-TW"\n[agent]\neffort = "high"\n[ui]\ntheme = "light"\nshow_turn_usage = false\n`;
  await withBoot({ script: [], toml }, (controller) => {
    assert.equal(controller.effort, "high");
    assert.equal(
      controller.contextWindow,
      128_000,
      "a custom provider without context_window gets the default",
    );
    assert.equal(controller.runningJobs(), 0);
    assert.deepEqual(controller.uiSettings, {
      language: "zh-TW",
      theme: "light",
      showTurnUsage: false,
      showReasoning: true,
    });
    return Promise.resolve();
  });
});

Deno.test("runningJobs() counts a background bash job while it runs", async () => {
  const args = JSON.stringify({ command: "sleep 30", run_in_background: true });
  await withBoot(
    { script: [{ toolCalls: [{ name: "bash", arguments: args }] }, { content: "started" }], yolo: true },
    async (controller) => {
      const outcome = await controller.runTurn("start a server");
      assert.equal(outcome.subtype, "success", outcome.result);
      assert.equal(controller.runningJobs(), 1);
    },
  );
});

Deno.test("[agent] reasoning_language rides the tail of the first user message; the prefix is unchanged", async () => {
  const bodies: string[][] = [];
  for (const toml of [undefined, `[agent]\nreasoning_language = "zh"\n`]) {
    await withBoot({ script: [{ content: "ok" }], ...(toml ? { toml } : {}) }, async (controller, sim) => {
      await controller.runTurn("hello");
      const json = sim.requests[0]!.json;
      bodies.push([
        JSON.stringify(json.messages[0]),
        JSON.stringify(json.tools),
        json.messages.at(-1).content,
      ]);
    });
  }
  const [plain, zh] = bodies as [string[], string[]];
  assert.equal(zh[0], plain[0], "the system prompt bytes are the same");
  assert.equal(zh[1], plain[1], "the tool schema bytes are the same");
  assert.equal(plain[2], "hello");
  assert.ok(zh[2]!.startsWith("hello") && zh[2]!.includes(reasoningLanguageNote("zh")), zh[2]);
});
