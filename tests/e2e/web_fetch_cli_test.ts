/**
 * web_fetch through the real CLI (under the Deno fence) with a scripted model: loopback and the cloud
 * metadata address are refused before any connection, and a read of /proc/self/environ is reported as
 * what it is, not as a write.
 */
import assert from "node:assert/strict";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("reasonix run refuses web_fetch to loopback and the metadata address even with WebFetch allowed", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    seen.push(request.url);
    return new Response("secret");
  });
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  const port = server.addr.port;
  const calls = [
    { name: "web_fetch", arguments: JSON.stringify({ url: `http://127.0.0.1:${port}/` }) },
    { name: "web_fetch", arguments: JSON.stringify({ url: "http://169.254.169.254/latest/meta-data/" }) },
    { name: "web_fetch", arguments: JSON.stringify({ url: `http://0x7f000001:${port}/` }) },
    { name: "read_file", arguments: JSON.stringify({ path: "/proc/self/environ" }) },
  ];
  sim.push(...calls.map((call) => ({ toolCalls: [call] })), { content: "done" });
  try {
    // Every domain is allowed, so only the address check stands between the model and the server.
    const args = ["run", "--allowed-tools", "WebFetch", "--output-format", "json", "fetch things"];
    const run = await runCli(args, { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const results: string[] = sim.requests.at(-1)!.json.messages
      .filter((m: { role: string }) => m.role === "tool")
      .map((m: { content: string }) => m.content);
    assert.equal(results.length, 4);
    assert.match(results[0]!, /^Error \[tool\.private_address\]: .*127\.0\.0\.1 is a loopback address/);
    assert.match(results[1]!, /^Error \[tool\.private_address\]: .*169\.254\.169\.254 is a cloud metadata/);
    assert.match(results[2]!, /^Error \[tool\.private_address\]: .*127\.0\.0\.1 is a loopback address/);
    assert.match(results[3]!, /^Error \[tool\.fenced\]: .*never reads files that expose the process itself/);
    assert.doesNotMatch(results[3]!, /may only write/);
    assert.deepEqual(seen, []);
  } finally {
    await sim.close();
    await server.shutdown();
    await removeAll(home, ws);
  }
});
