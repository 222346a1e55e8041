/**
 * Effect tests for MCP tools: the real assembly (boot → Controller → loop → dispatch → gate → request
 * body) against the simulator and a real MCP server (tests/fixtures/mcp/tools_server.ts). The servers
 * connected when the first request is built are in the tools array; one that connects later, or starts
 * only on first use, is reached through use_capability, and the provider-visible prefix never moves.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { bootController } from "../../src/control/boot.ts";
import type { ApprovalRequest } from "../../src/control/events.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { type BootingSession, withBoots } from "../support/controller_session.ts";
import { assertPrependOnly, assertStablePrefix, splitBody } from "../support/prefix_guard.ts";
import { toolResults } from "../support/sim_messages.ts";
import { toolsServerPlugin } from "../mcp/_servers.ts";
import { hostEnv } from "../support/host_env.ts";

const DONE: ScriptedReply = { reasoning: "done", content: "done" };

function calls(...list: [string, Record<string, unknown>][]): ScriptedReply {
  return {
    reasoning: "call",
    toolCalls: list.map(([name, args]) => ({ name, arguments: JSON.stringify(args) })),
  };
}

function proxied(args: Record<string, unknown>): ScriptedReply {
  return calls(["use_capability", args]);
}

interface Setup {
  script: ScriptedReply[];
  toml: string;
  mode?: string;
  headless?: boolean;
  graceMs?: number;
}

function withSession(setup: Setup, body: (session: BootingSession) => Promise<void>) {
  return withBoots({
    script: setup.script,
    files: { "a.txt": "alpha\n" },
    extraToml: setup.toml,
    listen: false,
    boot: {
      headless: setup.headless ?? true,
      flags: setup.mode ? { permissionMode: setup.mode } : {},
      mcpGraceMs: setup.graceMs ?? 60_000,
    },
  }, body);
}

function toolNames(body: string): string[] {
  const tools = JSON.parse(splitBody(body).tools.replace(/^"tools":/, "")) as {
    function: { name: string };
  }[];
  return tools.map((tool) => tool.function.name);
}

function lastUser(sim: DeepSeekSim, index: number): string {
  const messages = sim.requests[index]!.json.messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === "user").at(-1)!.content;
}

async function until(check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("mcp tools: a server connected at the first request is in the tools array; results, bad arguments and errors reach the model; a resume keeps the bytes", async () => {
  const script = [
    calls(
      ["mcp__fast__lookup", { key: "k" }],
      ["mcp__fast__lookup", { limit: 0 }],
      ["mcp__fast__picture", {}],
      ["mcp__fast__structured", {}],
      ["mcp__fast__refuse", {}],
    ),
    DONE,
    DONE,
  ];
  await withSession({ script, toml: toolsServerPlugin("fast"), mode: "yolo" }, async ({ sim, boot }) => {
    const first = await boot();
    assert.equal((await first.runTurn("use the server")).subtype, "success");
    const names = toolNames(sim.requests[0]!.body);
    for (const tool of ["lookup", "picture", "refuse", "structured", "wipe"]) {
      assert.ok(names.includes(`mcp__fast__${tool}`), `mcp__fast__${tool} is sent`);
    }
    assert.doesNotMatch(lastUser(sim, 0), /MCP/, "nothing to tell when every server is in the tools array");
    const [found, bad, picture, structured, refused] = toolResults(sim);
    assert.equal(found, "value of k");
    assert.match(bad!, /^Error \[tool\.invalid_args\]/);
    assert.match(bad!, /required property 'key'/);
    assert.match(bad!, /limit must be >= 1/);
    assert.equal(picture, "a red dot\n[image (image/png, 8 bytes) not shown]");
    assert.equal(structured, `{"count":3}`);
    assert.equal(refused, "Error [mcp.tool_error]: quota exceeded");
    await first.close();
    const second = await boot({ kind: "latest" });
    assert.equal((await second.runTurn("again")).subtype, "success");
    const bodies = sim.requests.map((request) => request.body);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
  });
});

Deno.test("mcp tools: a server that connects late is reached through use_capability and the prefix does not move", async () => {
  const script = [
    DONE,
    proxied({ action: "call", capability_id: "tool:mcp__late__lookup", arguments: { key: "z" } }),
    DONE,
  ];
  const toml = toolsServerPlugin("late", { args: ["--delay-ms=1500"] });
  await withSession({ script, toml, mode: "yolo", graceMs: 100 }, async ({ sim, boot }) => {
    const controller = await boot();
    assert.equal((await controller.runTurn("first")).subtype, "success");
    assert.ok(!toolNames(sim.requests[0]!.body).some((name) => name.startsWith("mcp__")));
    assert.match(lastUser(sim, 0), /MCP servers not connected yet: "late"/);
    await until(() => controller.mcp!.status()[0]!.state.kind === "connected");
    assert.equal((await controller.runTurn("second")).subtype, "success");
    assert.match(lastUser(sim, 1), /More MCP tools became available[^\n]*mcp__late__lookup/);
    assert.equal(toolResults(sim).at(-1), "value of z");
    const bodies = sim.requests.map((request) => request.body);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
  });
});

Deno.test("mcp tools: an auto_start = false server starts on first use through use_capability; the prefix does not move", async () => {
  const script = [
    proxied({ action: "list" }),
    proxied({ action: "call", capability_id: "tool:mcp__lazy__wipe", arguments: { target: "t" } }),
    DONE,
  ];
  const toml = toolsServerPlugin("lazy", { autoStart: false });
  await withSession({ script, toml, mode: "yolo" }, async ({ sim, boot }) => {
    const controller = await boot();
    assert.equal(controller.mcp!.status()[0]!.state.kind, "idle");
    assert.equal((await controller.runTurn("go")).subtype, "success");
    assert.match(lastUser(sim, 0), /MCP servers not connected yet: "lazy"\. Their tools are reached/);
    const [list, wiped] = toolResults(sim);
    const listed = JSON.parse(list!);
    assert.deepEqual(listed.servers, [{ name: "lazy", status: "connected" }]);
    const lookup = listed.capabilities.find((c: { id: string }) => c.id === "tool:mcp__lazy__lookup");
    assert.equal(lookup.read_only, true);
    assert.equal(wiped, "wiped t");
    const bodies = sim.requests.map((request) => request.body);
    assert.ok(!toolNames(bodies[0]!).some((name) => name.startsWith("mcp__")));
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
  });
});

Deno.test("mcp tools: rules name a tool or a whole server; a destructive tool's approval card says so", async () => {
  const wipe = calls(["mcp__fast__wipe", { target: "x" }]);
  const allow = `[permissions]\nallow = ["mcp__fast"]\n`;
  await withSession(
    { script: [wipe, DONE], toml: toolsServerPlugin("fast") + allow },
    async ({ sim, boot }) => {
      await (await boot()).runTurn("wipe");
      assert.equal(toolResults(sim)[0], "wiped x");
    },
  );
  const deny = `[permissions]\nallow = ["mcp__fast"]\ndeny = ["mcp__fast__wipe"]\n`;
  await withSession(
    { script: [wipe, DONE], toml: toolsServerPlugin("fast") + deny },
    async ({ sim, boot }) => {
      await (await boot()).runTurn("wipe");
      assert.match(toolResults(sim)[0]!, /^Error \[permission\.denied\][^\n]*"mcp__fast__wipe"/);
    },
  );
  const read = calls(
    ["mcp__fast__lookup", { key: "r" }],
    ["mcp__fast__wipe", { target: "y" }],
    ["mcp__fast__refuse", {}],
  );
  await withSession(
    { script: [read, DONE], toml: toolsServerPlugin("fast"), headless: false },
    async ({ sim, boot }) => {
      const controller = await boot();
      const cards: ApprovalRequest[] = [];
      controller.subscribe((event) => {
        if (event.type !== "approval_requested") return;
        cards.push(event.request);
        queueMicrotask(() => void controller.answerApproval(event.request.id, "deny"));
      });
      await controller.runTurn("look and wipe");
      assert.deepEqual(cards.map((card) => [card.tool, card.destructive]), [
        ["mcp__fast__wipe", true],
        ["mcp__fast__refuse", undefined],
      ], "only a tool that says destructiveHint: true is marked");
      const [looked, refused] = toolResults(sim);
      assert.equal(looked, "value of r", "a read-only tool runs without asking");
      assert.match(refused!, /declined/);
    },
  );
});

Deno.test("mcp tools: a tool added after list_changed joins as a proxied tool", async () => {
  const script = [
    calls(["mcp__more__lookup", { key: "a" }]),
    proxied({ action: "call", capability_id: "tool:mcp__more__extra", arguments: {} }),
    DONE,
  ];
  const toml = toolsServerPlugin("more", { args: ["--more"] });
  await withSession({ script, toml, mode: "yolo" }, async ({ sim, boot }) => {
    const controller = await boot();
    assert.equal((await controller.runTurn("go")).subtype, "success");
    assert.deepEqual(toolResults(sim), ["value of a", "extra ran"]);
    assertStablePrefix(sim.requests.map((request) => request.body));
  });
});

Deno.test("mcp tools: interrupting a turn cancels the server's call; a crashed server's call fails clearly", async () => {
  const marker = join(await Deno.makeTempDir({ prefix: "reasonix-mcp-marker-" }), "cancelled");
  const crash = resolve(import.meta.dirname!, "../fixtures/mcp/crash_server.ts");
  const toml = toolsServerPlugin("fast") + [
    `[[plugins]]`,
    `name = "frail"`,
    `command = ${JSON.stringify(Deno.execPath())}`,
    `args = ${JSON.stringify(["run", "-A", "--quiet", crash])}`,
    ``,
  ].join("\n");
  const script = [calls(["mcp__fast__hold", { marker }]), calls(["mcp__frail__crash", {}]), DONE];
  await withSession({ script, toml, mode: "yolo" }, async ({ sim, boot }) => {
    const controller = await boot();
    controller.subscribe((event) => {
      if (event.type === "tool_call" && event.name === "mcp__fast__hold") {
        setTimeout(() => controller.interrupt(), 500);
      }
    });
    await controller.runTurn("hold");
    await until(() => existsSync(marker), 10_000);
    assert.equal(Deno.readTextFileSync(marker), "cancelled");
    assert.equal((await controller.runTurn("crash")).subtype, "success");
    const crashed = toolResults(sim).at(-1)!;
    assert.match(crashed, /^Error \[mcp\.server_failed\]: MCP server "frail" exited/);
    assert.match(crashed, /giving up/, "the tail of its stderr is shown");
  });
  await Deno.remove(join(marker, ".."), { recursive: true });
});

Deno.test("mcp tools: a resumed session keeps its recorded MCP tools before the server connects, and calls them once it does", async () => {
  const script = [DONE, calls(["mcp__fast__lookup", { key: "later" }]), DONE];
  await withSession(
    { script, toml: toolsServerPlugin("fast"), mode: "yolo" },
    async ({ sim, home, boot }) => {
      const first = await boot();
      assert.equal((await first.runTurn("first")).subtype, "success");
      assert.ok(toolNames(sim.requests[0]!.body).includes("mcp__fast__lookup"));
      await first.close();
      // The same server, now slow to start: the resumed session does not wait for it.
      const config = join(home, "config.toml");
      const slow = toolsServerPlugin("fast", { args: ["--delay-ms=3000"] });
      await Deno.writeTextFile(
        config,
        (await Deno.readTextFile(config)).replace(toolsServerPlugin("fast"), slow),
      );
      const second = await bootController({
        cwd: first.workspaceRoot,
        headless: true,
        env: hostEnv(),
        paths: resolvePaths({ REASONIX_HOME: home }),
        flags: { permissionMode: "yolo" },
        mcpGraceMs: 100,
        resume: { kind: "latest" },
      });
      try {
        const started = performance.now();
        assert.equal((await second.runTurn("again")).subtype, "success");
        assert.ok(second.mcp!.status()[0]!.state.kind === "connected");
        assert.equal(toolResults(sim).at(-1), "value of later");
        assert.ok(
          performance.now() - started >= 2000,
          "the call waited for the server, the turn did not fail",
        );
      } finally {
        await second.close();
      }
      assertStablePrefix(sim.requests.map((request) => request.body));
    },
  );
});

Deno.test("mcp tools: interrupting a turn while use_capability starts a lazy server ends the turn at once", async () => {
  const script = [proxied({ action: "search", query: "lookup" }), DONE];
  const toml = toolsServerPlugin("lazy", { autoStart: false, args: ["--delay-ms=6000"] });
  await withSession({ script, toml, mode: "yolo" }, async ({ sim, boot }) => {
    const controller = await boot();
    controller.subscribe((event) => {
      if (event.type === "tool_call") setTimeout(() => controller.interrupt(), 300);
    });
    const started = performance.now();
    await controller.runTurn("search");
    assert.ok(performance.now() - started < 4000, "the turn did not wait for the server");
    assert.equal(sim.requests.length, 1);
  });
});
