import assert from "node:assert/strict";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

const SECRET = "sk-live-0123456789abcdef0123";

Deno.test("reasonix session search finds saved messages by words, scoped, escaped and redacted", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { content: `The flamingo cache key is ${SECRET}.` },
      { content: "ok" },
      { content: "Noted for the other project." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const other = await makeWorkspace({});
  const cli = (...args: string[]) => runCli(args, { home, cwd: ws });
  try {
    assert.equal((await cli("run", "where is the flamingo cache configured?")).code, 0);
    assert.equal((await cli("run", "rename \x1b]0;pwned\x07 the flamingo pipeline")).code, 0);
    assert.equal(
      (await runCli(["run", "the flamingo migration in the other project"], { home, cwd: other })).code,
      0,
    );

    const text = await cli("session", "search", "flamingo", "cache");
    assert.equal(text.code, 0, text.stderr);
    const blocks = text.stdout.trim().split("\n\n");
    assert.match(
      blocks[0]!,
      /^\d{8}-\d{6}-[0-9a-f]{8} #\d+ {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}(user|assistant)\n {2}/,
    );
    assert.match(blocks[0]!, /flamingo cache/);
    assert.match(text.stdout, /\[redacted\]/);
    assert.ok(!text.stdout.includes(SECRET), "no secret in the results");
    assert.ok(!text.stdout.includes("other project"), "the project scope stays in this workspace");
    assert.match(blocks.at(-1)!, /^\d result\(s\) in this workspace's sessions \(2 file\(s\) read\)$/);

    const escaped = await cli("session", "search", "pipeline");
    assert.ok(!escaped.stdout.includes("\x1b") && !escaped.stdout.includes("\x07"), "controls are escaped");
    assert.match(escaped.stdout, /rename ␛\]0;pwned␇ the flamingo pipeline/);

    const json = await cli("session", "search", "flamingo", "--global", "--json", "--limit", "10");
    assert.equal(json.code, 0, json.stderr);
    const body = JSON.parse(json.stdout);
    assert.equal(body.command, "session.search");
    assert.equal(body.scope, "global");
    assert.equal(body.query, "flamingo");
    assert.ok(body.hits.some((hit: { workspace: string }) => hit.workspace === other));
    assert.ok(body.hits.some((hit: { workspace: string }) => hit.workspace === ws));
    assert.ok(!json.stdout.includes(SECRET));

    const none = await cli("session", "search", "kubernetes");
    assert.equal(none.code, 0);
    assert.match(
      none.stdout,
      /^No match for "kubernetes" in this workspace's sessions .*Try fewer or broader words, or --global\.$/m,
    );

    const bad = await cli("session", "search", "flamingo", "--limit", "0");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--limit must be a positive integer/);
  } finally {
    await sim.close();
    await removeAll(home, ws, other);
  }
});
