/**
 * Effect tests for the cache-first guarantees: the real assembly (boot → Controller → loop → request
 * body → HTTP) against the simulator, asserting on the recorded request bytes.
 */
import assert from "node:assert/strict";
import { bootController } from "../../src/control/boot.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { builtinRegistry } from "../../src/tool/builtin/mod.ts";
import { assertPrependOnly, assertStablePrefix, splitBody } from "../support/prefix_guard.ts";

const SCRIPT: ScriptedReply[] = [
  { reasoning: "look", toolCalls: [{ name: "ls", arguments: `{"path": "."}` }] },
  { reasoning: "read", toolCalls: [{ name: "read_file", arguments: `{"path":"a.txt"}` }] },
  { reasoning: "done", content: "a.txt holds alpha" },
];

async function session(
  home: string,
  ws: string,
  options: { day: string; resume?: boolean },
) {
  const controller = await bootController({
    cwd: ws,
    headless: true,
    env: {},
    paths: resolvePaths({ REASONIX_HOME: home }),
    now: () => new Date(options.day),
    ...(options.resume ? { resume: { kind: "latest" as const } } : {}),
  });
  try {
    const outcome = await controller.runTurn("what is in a.txt?");
    assert.equal(outcome.subtype, "success", outcome.result);
  } finally {
    await controller.close();
  }
}

async function fixture(body: (sim: DeepSeekSim, home: string, ws: string) => Promise<void>) {
  const sim = await DeepSeekSim.start({ script: [...SCRIPT, ...SCRIPT, ...SCRIPT] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  try {
    await body(sim, home, ws);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

Deno.test("prefix: system prompt and tools are byte-identical across turns, restarts and days", async () => {
  await fixture(async (sim, home, ws) => {
    await session(home, ws, { day: "2026-12-01T08:00:00Z" });
    await session(home, ws, { day: "2026-12-03T23:30:00Z", resume: true });
    await session(home, ws, { day: "2027-01-15T12:00:00Z" });
    const bodies = sim.requests.map((r) => r.body);
    assert.equal(bodies.length, 9);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies.slice(0, 6));
    assert.ok(
      sim.requests[6]!.usage!.prompt_cache_hit_tokens > 0,
      "a new session on another day reuses the prefix",
    );
  });
});

Deno.test("prefix: the guards turn red when a timestamp is injected into the system prompt", async () => {
  await fixture(async (sim, home, ws) => {
    await session(home, ws, { day: "2026-12-01T08:00:00Z" });
    const bodies = sim.requests.map((r) => r.body);
    const system = splitBody(bodies[1]!).system;
    const mutated = system.replace("You are Reasonix", `[${new Date().toISOString()}] You are Reasonix`);
    assert.notEqual(mutated, system);
    const broken = [bodies[0]!, bodies[1]!.replace(system, mutated), bodies[2]!];
    assert.throws(() => assertStablePrefix(broken), /system prompt bytes changed/);
    assert.throws(() => assertPrependOnly(broken), /does not extend/);
    assert.ok(bodies[2]!.includes(JSON.stringify(`{"path": "."}`)), "arguments are replayed as streamed");
    const reserialised = [
      bodies[1]!,
      bodies[2]!.replace(JSON.stringify(`{"path": "."}`), JSON.stringify(`{"path":"."}`)),
    ];
    assert.throws(() => assertPrependOnly(reserialised), /does not extend/);
  });
});

Deno.test("prefix: switching model on resume is never silent", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "one" }, { content: "two" }] });
  const pro = [
    `[[providers]]`,
    `name = "deepseek-pro"`,
    `kind = "openai"`,
    `base_url = "${sim.url}"`,
    `model = "deepseek-v4-pro"`,
    `api_key_env = "DEEPSEEK_API_KEY"`,
    `reasoning_protocol = "deepseek"`,
  ].join("\n");
  const home = await makeHome({ simUrl: sim.url, extraToml: pro });
  const ws = await makeWorkspace({});
  const paths = resolvePaths({ REASONIX_HOME: home });
  try {
    const first = await bootController({ cwd: ws, headless: true, env: {}, paths });
    await first.runTurn("hi");
    await first.close();
    const second = await bootController({
      cwd: ws,
      headless: true,
      env: {},
      paths,
      flags: { model: "deepseek-pro" },
      resume: { kind: "latest" },
    });
    const warnings: string[] = [];
    second.subscribe((e) => e.type === "warning" && warnings.push(e.message));
    second.start();
    await second.runTurn("again");
    await second.close();
    assert.match(warnings.join("\n"), /started with "deepseek-flash".*"deepseek-v4-pro"/);
    const last = sim.requests[1]!.json;
    assert.equal(last.model, "deepseek-v4-pro");
    assert.match(
      last.messages.at(-1).content,
      /This turn is answered by deepseek-v4-pro \(was deepseek-flash\)/,
    );
    assertPrependOnly(sim.requests.map((r) => r.body));
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("prefix: the tools on the wire are the registry's frozen bytes, lean and goal-free", async () => {
  await fixture(async (sim, home, ws) => {
    await session(home, ws, { day: "2026-12-01T08:00:00Z" });
    const tools = splitBody(sim.requests[0]!.body).tools;
    assert.equal(tools, `"tools":${builtinRegistry().toolsJson()}`);
    assert.doesNotMatch(tools, /"update_goal"/, "a goal-mode tool is sent without goal mode");
    assert.doesNotMatch(tools, /"minLength":1[,}]|"exclusiveMinimum":0[,}]/);
  });
});
