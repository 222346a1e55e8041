/**
 * server-everything (the MCP reference server, from npm) through the real assembly: its tools are in the
 * tools array when it connected before the first request, the model calls two of them directly and reads
 * their results, and the array stays byte-identical although the server announces `tools/list_changed`
 * right after connecting.
 */
import assert from "node:assert/strict";
import { bootController } from "../../src/control/boot.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { assertPrependOnly, assertStablePrefix, splitBody } from "../support/prefix_guard.ts";
import { everythingPlugin } from "../mcp/_servers.ts";
import { hostEnv } from "../support/host_env.ts";

Deno.test("mcp tools: the model calls server-everything's tools directly and reads their results", async () => {
  const script: ScriptedReply[] = [
    {
      reasoning: "call both",
      toolCalls: [
        { name: "mcp__everything__echo", arguments: `{"message":"hello everything"}` },
        { name: "mcp__everything__get-sum", arguments: `{"a":2,"b":40}` },
      ],
    },
    { reasoning: "done", content: "done" },
  ];
  const sim = await DeepSeekSim.start({ script });
  const toml = everythingPlugin();
  const home = await makeHome({ simUrl: sim.url, extraToml: toml });
  const ws = await makeWorkspace({ "a.txt": "a\n" });
  const controller = await bootController({
    cwd: ws,
    headless: true,
    env: hostEnv(),
    paths: resolvePaths({ REASONIX_HOME: home }),
    flags: { permissionMode: "yolo" },
    // The first run of an npm server may download it.
    mcpGraceMs: 120_000,
  });
  try {
    assert.equal((await controller.runTurn("use everything")).subtype, "success");
    const tools = splitBody(sim.requests[0]!.body).tools;
    assert.match(tools, /"name":"mcp__everything__echo"/);
    assert.match(tools, /"name":"mcp__everything__get-sum"/);
    const messages = sim.requests[1]!.json.messages as { role: string; content: string }[];
    const results = messages.filter((message) => message.role === "tool").map((message) => message.content);
    assert.match(results[0]!, /hello everything/);
    assert.match(results[1]!, /42/);
    const bodies = sim.requests.map((request) => request.body);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
  } finally {
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
