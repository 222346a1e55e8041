/**
 * Snipping against the simulator: at the compact ratio stale tool results are shortened first and the
 * summary is skipped when that is enough; errors and the current turn stay whole; the originals are
 * archived; below the compact ratio a snip that would not pay for itself at real prices is skipped.
 */
import assert from "node:assert/strict";
import type { bootController } from "../../src/control/boot.ts";
import type { ReasonixEvent } from "../../src/control/events.ts";
import { isSummaryPrompt } from "../../src/agent/compaction.ts";
import { readArchive } from "../../src/session/archive.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";
import { assertStablePrefix } from "../support/prefix_guard.ts";

const read = (path: string): ScriptedReply => ({
  reasoning: "read",
  toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path }) }],
});
const SCRIPT: ScriptedReply[] = [read("big1.txt"), { content: "ok1" }, read("nope.txt"), { content: "ok2" }];
const BIG = "alpha beta gamma delta\n".repeat(500);

async function withSession(
  toml: string,
  script: ScriptedReply[],
  body: (
    f: {
      sim: DeepSeekSim;
      controller: Awaited<ReturnType<typeof bootController>>;
      events: ReasonixEvent[];
      home: string;
    },
  ) => Promise<void>,
) {
  await withController(
    { script, extraToml: toml, files: { "big1.txt": BIG, "big2.txt": BIG } },
    async ({ sim, controller, events, home }) => {
      await body({ sim, controller, events, home });
    },
  );
}

function window(tokens: number, extra = ""): string {
  return `[agent]\ncompact_ratio = 0.8\n${extra}\n[model_overrides.deepseek-flash]\ncontext_window = ${tokens}\n`;
}

Deno.test("at the compact ratio a snip comes first and spares the summary", async () => {
  const script = [...SCRIPT, read("big2.txt"), { content: "ok3" }];
  await withSession(window(9000), script, async ({ sim, controller, events, home }) => {
    for (const text of ["read big1", "read nope", "read big2"]) {
      assert.equal((await controller.runTurn(text)).subtype, "success");
    }
    assert.equal(sim.requests.filter((r) => isSummaryPrompt(r.json.messages.at(-1).content)).length, 0);
    assert.equal(sim.requests.length, 6);
    const last = sim.requests.at(-1)!.json.messages;
    // deno-lint-ignore no-explicit-any
    const tools = last.filter((m: any) => m.role === "tool");
    assert.equal(tools.length, 3);
    assert.match(
      tools[0].content,
      /characters of this old tool result were snipped; the original is in archive\//,
    );
    assert.ok(tools[0].content.length < 1500);
    assert.doesNotMatch(tools[1].content, /snipped/, "the error stays whole");
    assert.ok(
      tools[2].content.includes("250\talpha beta gamma delta\n"),
      "the current turn stays whole",
    );
    assert.ok(tools[2].content.length > BIG.length, "not shortened");
    assertStablePrefix(sim.requests.map((r) => r.body));
    assert.ok(events.some((e) => e.type === "notice" && /^Snipped 1 old tool results/.test(e.message)));
    const archives = [...Deno.readDirSync(`${home}/archive`)];
    assert.equal(archives.length, 1);
    const archived = await readArchive(`${home}/archive/${archives[0]!.name}`);
    assert.equal(archived.length, 1);
    assert.equal(archived[0]!.message.role, "tool");
  });
});

Deno.test("below the compact ratio a snip that does not pay at flash prices is skipped", async () => {
  const script = [...SCRIPT, { content: "ok3" }];
  await withSession(
    window(12000, "tool_result_snip_ratio = 0.3"),
    script,
    async ({ sim, controller, events }) => {
      for (const text of ["read big1", "read nope", "hello"]) {
        assert.equal((await controller.runTurn(text)).subtype, "success");
      }
      assert.ok(events.some((e) => e.type === "notice" && /^Snip skipped/.test(e.message)));
      const bodies = sim.requests.map((r) => r.body);
      assert.ok(!bodies.some((b) => b.includes("were snipped")));
      assert.equal(
        events.filter((e) => e.type === "notice" && /^Snip skipped/.test(e.message)).length,
        1,
        "decided once",
      );
    },
  );
});
