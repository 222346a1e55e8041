/**
 * Parity: one scripted session through `reasonix run` and through `reasonix serve` sends the provider
 * byte-identical requests. The faces only render; everything that reaches the model is the Controller's.
 */
import assert from "node:assert/strict";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { api, startServe } from "../support/serve_cli.ts";
import { ofType, SseReader } from "../frontends/serve/_support.ts";

const TASK = "read a.txt and edit it";
const SCRIPT: ScriptedReply[] = [
  { reasoning: "look", toolCalls: [{ name: "read_file", arguments: `{"path":"a.txt"}` }] },
  {
    reasoning: "edit",
    toolCalls: [{
      name: "edit_file",
      arguments: `{"path":"a.txt","old_string":"alpha","new_string":"beta"}`,
    }],
  },
  { reasoning: "done", content: "a.txt now says beta" },
];

async function throughRun(ws: string): Promise<string[]> {
  const sim = await DeepSeekSim.start({ script: structuredClone(SCRIPT) });
  const home = await makeHome({ simUrl: sim.url });
  try {
    const result = await runCli(["run", "--permission-mode", "yolo", "--output-format", "json", TASK], {
      home,
      cwd: ws,
    });
    assert.equal(result.code, 0, result.stderr);
    return sim.requests.map((request) => request.body);
  } finally {
    await sim.close();
    await removeAll(home);
  }
}

async function throughServe(ws: string): Promise<string[]> {
  const sim = await DeepSeekSim.start({ script: structuredClone(SCRIPT) });
  const home = await makeHome({ simUrl: sim.url });
  const server = await startServe(home, ws, ["--permission-mode", "yolo"]);
  try {
    const call = api(server);
    const { id } = await (await call("/api/sessions", { method: "POST", json: {} })).json();
    const stream = new SseReader(await call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    assert.equal(
      (await call(`/api/sessions/${id}/input`, { method: "POST", json: { text: TASK } })).status,
      202,
    );
    assert.equal((await stream.until(ofType("turn_done"))).data.subtype, "success");
    await stream.close();
    return sim.requests.map((request) => request.body);
  } finally {
    await server.stop();
    await sim.close();
    await removeAll(home);
  }
}

Deno.test("parity: run and serve send byte-identical provider requests for one scripted session", async () => {
  const runWs = await makeWorkspace({ "a.txt": "alpha\n" });
  try {
    const viaRun = await throughRun(runWs);
    // The same workspace, restored: the session context names it, so both faces see the same facts.
    await Deno.writeTextFile(`${runWs}/a.txt`, "alpha\n");
    const viaServe = await throughServe(runWs);
    assert.equal(viaRun.length, 3);
    assert.equal(viaServe.length, viaRun.length);
    for (let i = 0; i < viaRun.length; i++) assert.equal(viaServe[i], viaRun[i], `request ${i + 1} differs`);
  } finally {
    await removeAll(runWs);
  }
});
