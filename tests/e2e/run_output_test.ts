/**
 * `reasonix run`'s text output through the real CLI: stdout holds the answer alone, stderr one line per
 * tool call and its outcome, the receipts and the session line; a reader that leaves stdout early stops
 * the run quietly with 141.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { cliCommand, cliEnv, MAIN_TS, makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("reasonix run text: stdout is the answer, stderr the calls, their outcomes and the session", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      {
        content: "Looking.",
        toolCalls: [
          { name: "bash", arguments: `{"command":"seq 1 12"}` },
          { name: "read_file", arguments: `{"path":"a.txt"}` },
          { name: "grep", arguments: `{"pattern":"o"}` },
        ],
      },
      {
        toolCalls: [
          { name: "edit_file", arguments: `{"path":"a.txt","old_string":"two","new_string":"2\\n2b"}` },
          { name: "bash", arguments: `{"command":"echo oops; exit 4"}` },
          { name: "read_file", arguments: `{"path":"missing.txt"}` },
        ],
      },
      { content: "All done.\nSecond line." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "one\ntwo\nthree\n" });
  try {
    const run = await runCli(["run", "--permission-mode", "auto", "go"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "Looking.\nAll done.\nSecond line.\n");
    const err = run.stderr;
    for (
      const line of [
        `  -> bash {"command":"seq 1 12"}`,
        "    ✓ bash seq 1 12 → exit 0, 12 lines",
        "    ✓ read_file a.txt → 3 lines",
        "    ✓ grep o → 2 matches in 1 file",
        "    ✓ edit_file a.txt → +2 −1",
        "    ✗ bash echo oops; exit 4 → exit 4, 1 line",
      ]
    ) assert.ok(err.includes(`${line}\n`), `${line}\nin:\n${err}`);
    assert.match(err, /^ {4}✗ read_file: Cannot access "missing\.txt": .*$/m);
    assert.equal(err.match(/^ {2}· \d+ tok · /gm)?.length, 3, "one receipt per request");
    assert.match(
      err,
      /\nsession \d{8}-\d{6}-[0-9a-f]{8} · ¥[\d.]+ · 3 requests · 6 tool calls · cache hit \d+%\n$/,
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "one\n2\n2b\nthree\n");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run text: a reader that closes stdout after one line stops the run with 141, silently", async () => {
  const lines = Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join("\n");
  const sim = await DeepSeekSim.start({
    script: [{ content: lines, chunkSize: 8, tokensPerSecond: 200 }, { content: "never asked" }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  try {
    const child = cliCommand(["run", "write lines"], { home, cwd: ws }).spawn();
    const stderr = new Response(child.stderr).text();
    const reader = child.stdout.getReader();
    let first = "";
    while (!first.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      first += new TextDecoder().decode(value);
    }
    // The reader leaves, as `head -1` does: the pipe's only read end is closed.
    await reader.cancel();
    const status = await child.status;
    const said = await stderr;
    assert.ok(first.startsWith("line 1\n"), first);
    assert.equal(status.code, 141, said);
    assert.doesNotMatch(said, /broken pipe|error/i);
    assert.match(said, /^session \S+ · /m, "the session line still tells how to continue");
    assert.equal(sim.requests.length, 1);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run text: `| head -1` in a shell prints one line and no error", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ content: Array.from({ length: 300 }, (_, i) => `row ${i}`).join("\n"), tokensPerSecond: 300 }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  try {
    const script = `'${Deno.execPath()}' run --no-prompt -A '${MAIN_TS}' run rows | head -1; ` +
      `echo "status \${PIPESTATUS[0]}" >&2`;
    const out = await new Deno.Command("bash", {
      args: ["-c", script],
      cwd: ws,
      env: cliEnv(home),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    const said = decoder.decode(out.stderr);
    assert.equal(decoder.decode(out.stdout), "row 0\n");
    assert.doesNotMatch(said, /broken pipe|error/i);
    assert.match(said, /status 141\n$/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
