import assert from "node:assert/strict";
import { join } from "node:path";
import { resolvePaths } from "../../../src/config/paths.ts";
import { runLineMode } from "../../../src/frontends/tui/line_mode.ts";
import { DeepSeekSim, type ScriptedReply } from "../../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../../support/cli.ts";

const WRITE = { toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi\\n"}` }] };

async function lineSession(
  script: ScriptedReply[],
  lines: string,
  asksApprovals: boolean,
  body: (run: { sim: DeepSeekSim; out: string; ws: string; home: string }) => Promise<void>,
) {
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  let out = "";
  try {
    await runLineMode({
      boot: { cwd: ws, env: {}, paths: resolvePaths({ REASONIX_HOME: home }) },
      input: ReadableStream.from([new TextEncoder().encode(lines)]),
      write: (text) => out += text,
      asksApprovals,
    });
    await body({ sim, out, ws, home });
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

Deno.test("runLineMode() with a person at stdin: a line of text denies the call with that reason", async () => {
  await lineSession(
    [WRITE, { content: "ok" }],
    "write x\nuse y.txt instead\n",
    true,
    async ({ sim, out, ws }) => {
      assert.match(out, /\? Allow write_file\? x\.txt\n/);
      assert.match(out, /1\) Allow once {2}2\) Allow for this session {2}3\) Always allow {2}4\) Deny\n/);
      assert.match(out, /A number, or a reason to deny \(an empty line denies\): /);
      await assert.rejects(Deno.stat(join(ws, "x.txt")), Deno.errors.NotFound);
      const refusal =
        `Error [permission.denied]: The user declined this "write_file" call and said: "use y.txt instead"`;
      assert.ok(sim.requests[1]!.body.includes(JSON.stringify(refusal)), sim.requests[1]!.body);
      assert.equal(sim.requests.length, 2, "the reason line was not sent as a turn");
    },
  );
});

Deno.test("runLineMode() with a person at stdin: 3 always allows and says where the rule went", async () => {
  await lineSession([WRITE, { content: "ok" }], "write x\n3\n", true, async ({ out, ws, home }) => {
    assert.equal(await Deno.readTextFile(join(ws, "x.txt")), "hi\n");
    const file = join(home, "trust.json");
    assert.ok(out.includes(`Always allowing write_file(x.txt) in this workspace — saved to ${file}\n`), out);
  });
});

Deno.test("runLineMode() with piped stdin refuses gated calls and never reads an answer", async () => {
  const script = [WRITE, { content: "ok" }, { content: "second turn" }];
  await lineSession(script, "write x\n1\n", false, async ({ sim, out, ws }) => {
    await assert.rejects(Deno.stat(join(ws, "x.txt")), Deno.errors.NotFound);
    assert.doesNotMatch(out, /A number, or a reason/);
    assert.equal(sim.requests.length, 3, "the 1 is the next turn");
  });
});
