import assert from "node:assert/strict";
import { resolvePaths } from "../../../src/config/paths.ts";
import { runLineMode } from "../../../src/frontends/tui/line_mode.ts";
import { DeepSeekSim, type ScriptedReply } from "../../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../../support/cli.ts";

function plan(summary: string): ScriptedReply {
  const args = { summary, steps: [{ content: "Write the \x1b[31mfile" }] };
  const call = { action: "call", capability_id: "tool:submit_plan", arguments: args };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

Deno.test("runLineMode(): /plan, then a plan revised by the next lines and approved; the mode comes back", async () => {
  const sim = await DeepSeekSim.start({ script: [plan("First"), plan("Second"), { content: "On it." }] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  let out = "";
  try {
    const code = await runLineMode({
      boot: {
        cwd: ws,
        env: {},
        paths: resolvePaths({ REASONIX_HOME: home }),
        flags: { permissionMode: "auto" },
      },
      input: ReadableStream.from([
        new TextEncoder().encode("/plan\nplan it\n2\nadd tests\n1\n/permissions\n"),
      ]),
      write: (text) => out += text,
    });
    assert.equal(code, null);
    assert.match(out, /Permission mode: plan/);
    assert.match(
      out,
      /Plan · revision 1\nFirst\n1\. Write the file\n1 approve · 2 revise · 3 reject: What should change\?/,
    );
    assert.match(out, /Plan revision 1: revision asked/);
    assert.match(out, /Plan revision 2 approved · permission mode auto/);
    assert.match(out, /Permission mode: auto/);
    const tools = sim.requests[2]!.json.messages.filter((m: { role: string }) => m.role === "tool");
    assert.match(tools[0].content, /said: "add tests"/);
    assert.match(tools[1].content, /^The user approved plan revision 2/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
