import assert from "node:assert/strict";
import { resolvePaths } from "../../../src/config/paths.ts";
import { runLineMode } from "../../../src/frontends/tui/line_mode.ts";
import { DeepSeekSim } from "../../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../../support/cli.ts";
import { denoEnv, everythingPlugin } from "../../mcp/_servers.ts";

Deno.test("runLineMode() sends each line through Controller.submit: commands answer, text is a turn", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "hi there" }] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const lines = "/todo\n#use tabs\n/nope\nhello\n/quit\nnever sent\n";
  let out = "";
  try {
    const code = await runLineMode({
      boot: { cwd: ws, env: {}, paths: resolvePaths({ REASONIX_HOME: home }) },
      input: ReadableStream.from([new TextEncoder().encode(lines)]),
      write: (text) => out += text,
    });
    assert.equal(code, null);
    assert.match(out, /The todo list is empty\.\n/);
    assert.match(out, /use tabs/);
    assert.match(out, /\/nope/);
    assert.match(out, /hi there/);
    assert.equal(sim.requests.length, 1, "only the plain line reaches the model; /quit ends the loop");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("runLineMode() does not print the line again after /switch", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "Answer one." }, { content: "Answer on b." }] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  let out = "";
  try {
    const code = await runLineMode({
      boot: { cwd: ws, env: {}, paths: resolvePaths({ REASONIX_HOME: home }) },
      input: ReadableStream.from([new TextEncoder().encode("first\n/branch b\nsecond\n/switch main\n")]),
      write: (text) => out += text,
    });
    assert.equal(code, null);
    assert.match(out, /Switched to branch main \(1 turn\)/);
    assert.equal(out.split("Answer one.").length, 2, out);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("runLineMode() shows a proxied call as the tool it runs, and an inspect by its capability", async () => {
  const call = (args: Record<string, unknown>) => ({
    reasoning: "r",
    toolCalls: [{ name: "use_capability", arguments: JSON.stringify(args) }],
  });
  const sim = await DeepSeekSim.start({
    script: [
      call({ action: "inspect", capability_id: "tool:glob" }),
      call({ action: "call", capability_id: "tool:glob", arguments: { pattern: "*.md" } }),
      { content: "Found it." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.md": "# a\n" });
  let out = "";
  try {
    const code = await runLineMode({
      boot: { cwd: ws, env: {}, paths: resolvePaths({ REASONIX_HOME: home }) },
      input: ReadableStream.from([new TextEncoder().encode("find the docs\n")]),
      write: (text) => out += text,
    });
    assert.equal(code, null, "no failed turn");
    assert.match(out, /· use_capability tool:glob\n/);
    assert.match(out, /· glob \*\.md\n/);
    assert.doesNotMatch(out, /· use_capability \*\.md/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("runLineMode() prints an MCP call's progress as lines between its call and its result", async () => {
  const tool = "mcp__everything__trigger-long-running-operation";
  const sim = await DeepSeekSim.start({
    script: [{ toolCalls: [{ name: tool, arguments: `{"duration":1.2,"steps":4}` }] }, { content: "Done." }],
  });
  const extraToml = `${everythingPlugin()}\n`;
  const home = await makeHome({ simUrl: sim.url, extraToml });
  const ws = await makeWorkspace({});
  const env = denoEnv();
  let out = "";
  try {
    const code = await runLineMode({
      boot: { cwd: ws, env, paths: resolvePaths({ REASONIX_HOME: home }), flags: { permissionMode: "yolo" } },
      input: ReadableStream.from([new TextEncoder().encode("run the long operation\n")]),
      write: (text) => out += text,
    });
    assert.equal(code, null, out);
    assert.match(out, new RegExp(`^· ${tool}.*\\n(?: {2}${tool} [1-4]/4\\n)+✓ ${tool}\\n`, "m"));
    assert.match(out, /Done\./);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
