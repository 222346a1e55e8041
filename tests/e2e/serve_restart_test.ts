/**
 * A serve restart and `Last-Event-ID`. The journal lives in memory, but every record is in the session
 * log: a client that reconnects to the restarted server with the id it last saw gets the log records
 * after that id's seq (frames without ids), a `ready` frame with the id to go on from, then live events.
 * Deltas the stopped process streamed but never recorded are not replayed: the stop interrupted the turn
 * they belonged to, and the log says so.
 */
import assert from "node:assert/strict";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { api, type Server, startServe } from "../support/serve_cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { ofType, type SseFrame, SseReader } from "../frontends/serve/_support.ts";
import { parseFrameId } from "../../src/frontends/serve/journal.ts";

const seqOf = (id: string) => parseFrameId(id)!.base;

Deno.test("serve restart: Last-Event-ID after a restart replays the log records after it, then live", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { content: "first answer, whole." },
      { content: "second answer, streamed slowly. ".repeat(4), chunkSize: 3, tokensPerSecond: 20 },
      { content: "third answer, after the restart." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  let server: Server = await startServe(home, ws);
  try {
    let call = api(server);
    const { id } = await (await call("/api/sessions", { method: "POST", json: {} })).json();
    const stream = new SseReader(await call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    await call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "one" } });
    await stream.until(ofType("turn_done"));
    await call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "two" } });
    const two = await stream.until((frame) =>
      frame.data?.type === "turn_started" && frame.data.text === "two"
    );
    const after = (frame: SseFrame) => stream.frames.indexOf(frame) > stream.frames.indexOf(two);
    let seen = 0;
    await stream.until((frame) => frame.data?.type === "text" && after(frame) && ++seen === 3);
    const lastId = stream.frames.at(-1)!.id!;
    assert.match(lastId, /^\d+\.\d+$/, "the client last saw a delta of the running turn");
    await stream.close();
    await server.stop();

    server = await startServe(home, ws);
    call = api(server);
    const resumed = new SseReader(
      await call(`/api/sessions/${id}/events`, { headers: { "last-event-id": lastId } }),
    );
    const ready = await resumed.until(ofType("ready"));
    const replayed = resumed.frames.slice(0, resumed.frames.indexOf(ready));
    assert.ok(replayed.length > 0, "the records written since that id are replayed");
    assert.ok(replayed.every((frame) => frame.id === undefined), "log records carry no journal id");
    assert.ok(replayed.every((frame) => frame.data.seq > seqOf(lastId)), "only records after the id's seq");
    assert.ok(
      !replayed.some((frame) => frame.data.type === "turn_started"),
      "the turn the client saw is not resent",
    );
    const ended = replayed.find((frame) => frame.data.type === "turn_done");
    assert.match(
      ended?.data.result ?? "",
      /SIGTERM/,
      `the log says the stop interrupted the turn: ${
        JSON.stringify(replayed.map((frame) => frame.data.type))
      }`,
    );
    assert.ok(seqOf(ready.id!) >= seqOf(lastId), "ids keep growing across the restart");

    await call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "three" } });
    const done = await resumed.until((frame) =>
      frame.data?.type === "turn_done" && resumed.frames.indexOf(frame) > resumed.frames.indexOf(ready)
    );
    const live = resumed.frames.slice(resumed.frames.indexOf(ready) + 1, resumed.frames.indexOf(done) + 1);
    assert.equal(live.find((frame) => frame.data.type === "turn_started")?.data.text, "three");
    assert.ok(live.every((frame) => frame.id !== undefined && seqOf(frame.id) >= seqOf(ready.id!)));
    await resumed.close();
  } finally {
    await server.stop();
    await sim.close();
    await removeAll(home, ws);
  }
});
