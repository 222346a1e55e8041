/**
 * `reasonix acp` driven by acpx, an independent ACP client from npm (run with node), against the
 * DeepSeek simulator: a prompt with a tool call whose permission acpx answers (approve and deny),
 * cancellation of a running prompt, and a persistent acpx session resumed from one `reasonix run` made.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { type AcpxOptions, ensureAcpx, jsonMessages, runAcpx } from "../support/acpx.ts";

const WRITE_HELLO = {
  toolCalls: [{ id: "call_w", name: "write_file", arguments: '{"path":"hello.txt","content":"hi\\n"}' }],
};

async function setup(script: ScriptedReply[], files: Record<string, string> = {}) {
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace(files);
  const acpxHome = await Deno.makeTempDir({ prefix: "reasonix-acpx-home-" });
  const options: AcpxOptions = { cli: await ensureAcpx(), home, acpxHome, cwd: ws };
  return {
    sim,
    ws,
    options,
    async close() {
      await sim.close();
      await removeAll(home, ws, acpxHome);
    },
  };
}

Deno.test("acpx exec: a tool call acpx approves runs, with its diff in the updates", async () => {
  const t = await setup([WRITE_HELLO, { content: "Wrote hello.txt." }]);
  try {
    const run = await runAcpx(["--approve-all", "--format", "json", "exec", "write hello.txt"], t.options);
    assert.equal(run.code, 0, run.stderr);
    const messages = jsonMessages(run.stdout);
    const at = messages.findIndex((m) => m.method === "session/request_permission");
    assert.ok(at >= 0, run.stdout);
    // Both sides number their own requests: the answer is the next response with that id.
    const answer = messages.slice(at).find((m) => m.id === messages[at]!.id && "result" in m);
    assert.deepEqual(answer?.result, { outcome: { outcome: "selected", optionId: "allow_once" } });
    const updates = messages.filter((m) => m.method === "session/update").map((m) =>
      (m.params as { update: Record<string, unknown> }).update
    );
    const done = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    assert.deepEqual(done?.content, [{
      type: "diff",
      path: join(t.ws, "hello.txt"),
      oldText: null,
      newText: "hi\n",
    }]);
    assert.ok(messages.some((m) => (m.result as { stopReason?: string })?.stopReason === "end_turn"));
    assert.equal(await Deno.readTextFile(join(t.ws, "hello.txt")), "hi\n");
  } finally {
    await t.close();
  }
});

Deno.test("acpx exec --deny-all: the denied write never happens", async () => {
  const t = await setup([WRITE_HELLO, { content: "Understood." }]);
  try {
    const run = await runAcpx(["--deny-all", "--format", "json", "exec", "write hello.txt"], t.options);
    // acpx ends a run in which it denied a permission with its own status 5.
    assert.equal(run.code, 5, run.stderr);
    const messages = jsonMessages(run.stdout);
    const at = messages.findIndex((m) => m.method === "session/request_permission");
    assert.ok(at >= 0, run.stdout);
    const answer = messages.slice(at).find((m) => m.id === messages[at]!.id && "result" in m);
    assert.deepEqual(answer?.result, { outcome: { outcome: "selected", optionId: "deny" } });
    assert.ok(messages.some((m) => (m.result as { stopReason?: string })?.stopReason === "end_turn"));
    await assert.rejects(Deno.stat(join(t.ws, "hello.txt")), Deno.errors.NotFound);
  } finally {
    await t.close();
  }
});

Deno.test("acpx cancel stops a running prompt; the session goes on", async () => {
  const t = await setup([
    { content: "word ".repeat(400), chunkSize: 5, tokensPerSecond: 20 },
    { content: "Second answer." },
  ]);
  const acpx = (args: string[]) => runAcpx(["--ttl", "5", "--approve-all", ...args], t.options);
  try {
    assert.equal((await acpx(["sessions", "new"])).code, 0);
    const talking = acpx(["prompt", "talk"]);
    while ((t.sim.requests[0]?.stream?.sent ?? 0) < 3) await new Promise((r) => setTimeout(r, 100));
    const cancel = await acpx(["cancel"]);
    assert.equal(cancel.code, 0, cancel.stderr);
    const talked = await talking;
    assert.match(talked.stdout, /\[done\] cancelled/, talked.stdout + talked.stderr);
    const again = await acpx(["prompt", "again"]);
    assert.match(again.stdout, /Second answer\.[\s\S]*\[done\] end_turn/, again.stdout + again.stderr);
  } finally {
    await acpx(["sessions", "close"]);
    await t.close();
  }
});

Deno.test("acpx resumes a session reasonix run made and continues it", async () => {
  const t = await setup([{ content: "It says alpha." }, { content: "Continued." }], { "a.txt": "alpha\n" });
  const acpx = (args: string[]) => runAcpx(["--ttl", "5", "--approve-all", ...args], t.options);
  try {
    const run = await runCli(["run", "--output-format", "json", "what is in a.txt"], {
      home: t.options.home,
      cwd: t.ws,
    });
    assert.equal(run.code, 0, run.stderr);
    const sessionId = JSON.parse(run.stdout).session_id as string;
    const created = await acpx(["sessions", "new", "--resume-session", sessionId]);
    assert.equal(created.code, 0, created.stderr);
    const next = await acpx(["prompt", "go on"]);
    assert.match(next.stdout, /Continued\.[\s\S]*\[done\] end_turn/, next.stdout + next.stderr);
    const first = t.sim.requests[0]!.json.messages;
    const last = t.sim.requests.at(-1)!.json.messages;
    assert.equal(t.sim.requests.length, 2);
    assert.deepEqual(last.slice(0, first.length), first);
    assert.equal(last[first.length].content, "It says alpha.");
  } finally {
    await acpx(["sessions", "close"]);
    await t.close();
  }
});
