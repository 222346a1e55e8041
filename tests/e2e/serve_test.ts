/**
 * `reasonix serve` as a person runs it: the real CLI (under the Deno fence) on 127.0.0.1 port 0
 * against the DeepSeek simulator, driven over HTTP and server-sent events. A stream dropped mid-turn
 * and reopened with `Last-Event-ID` receives exactly the events it missed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cliCommand, makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { api, startServe } from "../support/serve_cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { ofType, type SseFrame, SseReader } from "../frontends/serve/_support.ts";

const strip = (frames: SseFrame[]) => frames.map((frame) => ({ id: frame.id, data: frame.data }));

Deno.test("serve e2e: a dropped stream reconnects with Last-Event-ID and gets exactly what it missed", async () => {
  const answer = "streamed slowly so the client can drop its stream in the middle of it. ".repeat(2);
  const sim = await DeepSeekSim.start({
    script: [{ reasoning: "think", content: answer, chunkSize: 3, tokensPerSecond: 40 }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  const server = await startServe(home, ws);
  try {
    const call = api(server);
    assert.equal((await call("/api/sessions", { headers: { authorization: "" } })).status, 401);
    const created = await call("/api/sessions", { method: "POST", json: {} });
    assert.equal(created.status, 201);
    const { id } = await created.json();
    const witness = new SseReader(await call(`/api/sessions/${id}/events`));
    await witness.until(ofType("ready"));
    const dropped = new SseReader(await call(`/api/sessions/${id}/events`));
    await dropped.until(ofType("ready"));
    assert.equal(
      (await call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "go" } })).status,
      202,
    );

    let seen = 0;
    await dropped.until((frame) => frame.data?.type === "text" && ++seen === 3);
    const lastId = dropped.frames.at(-1)!.id!;
    await dropped.close();

    const done = await witness.until(ofType("turn_done"));
    assert.equal(done.data.subtype, "success");
    const from = witness.frames.findIndex((frame) => frame.id === lastId);
    assert.ok(from > 0, `the witness saw ${lastId}`);
    const missed = witness.frames.slice(from + 1, witness.frames.indexOf(done) + 1);
    assert.ok(missed.some((frame) => frame.data.type === "text"), "the drop was mid-answer");

    const resumed = new SseReader(
      await call(`/api/sessions/${id}/events`, { headers: { "last-event-id": lastId } }),
    );
    await resumed.until(ofType("turn_done"));
    assert.deepEqual(strip(resumed.frames), strip(missed));
    await resumed.close();

    const query = new SseReader(await call(`/api/sessions/${id}/events?after=${encodeURIComponent(lastId)}`));
    await query.until(ofType("turn_done"));
    assert.deepEqual(strip(query.frames), strip(missed));
    await query.close();
    await witness.close();
    const text = missed.filter((f) => f.data.type === "text").map((f) => f.data.text).join("");
    assert.ok(answer.endsWith(text));
  } finally {
    await server.stop();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("serve e2e: --auth none on a non-loopback address is refused at start, naming the flag", async () => {
  const home = await makeHome({ simUrl: "http://127.0.0.1:9" });
  const ws = await makeWorkspace({});
  try {
    const out = await cliCommand(["serve", "--addr", "0.0.0.0:0", "--auth", "none"], { home, cwd: ws })
      .output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2);
    assert.match(stderr, /--auth none/);
    assert.match(stderr, /hint: .*--auth token/);
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("serve e2e: a project's reasonix.toml cannot turn auth off", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "reasonix.toml": `[serve]\nauth_mode = "none"\naddr = "0.0.0.0:0"\n` });
  const portFile = join(home, "port");
  const server = await startServe(home, ws, ["--port-file", portFile]);
  try {
    assert.match(server.output.join(""), /auth: token/);
    assert.equal(`${new URL(server.url).port}\n`, await Deno.readTextFile(portFile));
    const call = api(server);
    assert.equal((await call("/api/sessions", { headers: { authorization: "" } })).status, 401);
    assert.equal((await call("/api/sessions")).status, 200);
  } finally {
    await server.stop();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("serve e2e: --hash-password reads stdin and prints a bcrypt hash, never echoing the password", async () => {
  const home = await makeHome({ simUrl: "http://127.0.0.1:9" });
  const ws = await makeWorkspace({});
  try {
    const child = cliCommand(["serve", "--hash-password"], { home, cwd: ws, stdin: "" }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("s3cret pass\n"));
    await writer.close();
    const out = await child.output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.match(stdout, /^\$2[aby]\$12\$[./A-Za-z0-9]{53}\n$/);
    assert.ok(!stdout.includes("s3cret"));
  } finally {
    await removeAll(home, ws);
  }
});
