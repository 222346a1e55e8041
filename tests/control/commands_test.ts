import assert from "node:assert/strict";
import type { bootController } from "../../src/control/boot.ts";
import { defaultCommands } from "../../src/control/commands/builtin.ts";
import { type CommandContext, CommandRegistry, parseSlash } from "../../src/control/commands/registry.ts";
import type { ReasonixEvent } from "../../src/control/events.ts";
import { SUMMARY_OPEN } from "../../src/agent/compaction.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";

type Booted = Awaited<ReturnType<typeof bootController>>;

interface Session {
  sim: DeepSeekSim;
  controller: Booted;
  ctx: CommandContext;
  printed: string[];
  events: ReasonixEvent[];
  quits: number[];
}

async function withSession(script: ScriptedReply[], body: (session: Session) => Promise<void>) {
  await withController(
    { script, files: { "a.txt": "alpha\n" }, flags: { permissionMode: "ask" } },
    async ({ sim, controller, events }) => {
      const printed: string[] = [];
      const quits: number[] = [];
      const ctx: CommandContext = {
        host: controller,
        print: (text) => printed.push(text),
        quit: () => quits.push(1),
      };
      await body({ sim, controller, ctx, printed, events, quits });
    },
  );
}

Deno.test("parseSlash() separates commands from text and paths", () => {
  assert.deepEqual(parseSlash("  /Permissions  auto "), { name: "permissions", args: "auto" });
  assert.deepEqual(parseSlash("/help"), { name: "help", args: "" });
  assert.equal(parseSlash("hello /help"), null);
  assert.equal(parseSlash("/etc/hosts is broken"), null, "a path goes to the model");
});

Deno.test("resolve() finds names and aliases and suggests the nearest for a typo", () => {
  const registry = defaultCommands();
  const exit = registry.resolve("/exit");
  assert.ok(exit.kind === "command" && exit.command.name === "quit");
  const typo = registry.resolve("/compcat now");
  assert.deepEqual(typo, { kind: "unknown", name: "compcat", suggestions: ["/compact"] });
  const prefix = registry.resolve("/perm");
  assert.ok(prefix.kind === "unknown" && prefix.suggestions[0] === "/permission", JSON.stringify(prefix));
  const far = registry.resolve("/zzzzzzzz");
  assert.deepEqual(far, { kind: "unknown", name: "zzzzzzzz", suggestions: [] });
  assert.deepEqual(registry.resolve("tell me about /help"), { kind: "text" });
});

Deno.test("complete() offers command names, then argument choices", () => {
  const registry = defaultCommands();
  assert.deepEqual(registry.complete("/c"), ["/clear", "/compact", "/context", "/copy", "/cost"]);
  assert.deepEqual(registry.complete("/co"), ["/compact", "/context", "/copy", "/cost"]);
  assert.deepEqual(registry.complete("/permissions a"), ["/permissions ask", "/permissions auto"]);
  assert.deepEqual(registry.complete("/mode y"), ["/permissions yolo"]);
  assert.deepEqual(registry.complete("/reasoning-language z"), ["/reasoning-language zh"]);
  assert.deepEqual(registry.complete("plain"), []);
});

Deno.test("/help lists every registered command from the same registry", async () => {
  const registry = defaultCommands();
  const printed: string[] = [];
  const ctx = { host: undefined as never, print: (text: string) => printed.push(text), quit() {} };
  assert.equal(await registry.dispatch(ctx, "/help"), true);
  for (const command of registry.list()) assert.ok(printed[0]!.includes(command.usage), command.name);
  await registry.dispatch(ctx, "/help exit");
  assert.match(printed[1]!, /^\/quit\nEnd the session\nAliases: \/exit$/);
  await registry.dispatch(ctx, "/hlep");
  assert.equal(printed[2], "Unknown command /hlep. Did you mean /help? Type /help for the list.");
  assert.equal(await registry.dispatch(ctx, "no command here"), false);
  assert.equal(printed.length, 3);
});

Deno.test("register() refuses a name or alias used twice", () => {
  const registry = new CommandRegistry();
  registry.register({ name: "a", aliases: ["b"], summary: "", usage: "/a", run() {} });
  assert.throws(
    () => registry.register({ name: "b", aliases: [], summary: "", usage: "/b", run() {} }),
    /twice/,
  );
});

Deno.test("/permissions shows and sets the Controller's mode", async () => {
  await withSession([], async ({ controller, ctx, printed }) => {
    const registry = defaultCommands();
    await registry.dispatch(ctx, "/permissions");
    assert.equal(printed.at(-1), "Permission mode: ask");
    await registry.dispatch(ctx, "/permissions AUTO");
    assert.equal(controller.permissionMode, "auto");
    await registry.dispatch(ctx, "/permissions maybe");
    assert.match(printed.at(-1)!, /Unknown permission mode "maybe"/);
    assert.equal(controller.permissionMode, "auto");
  });
});

Deno.test("/cost and /status report the Controller's totals after a real turn", async () => {
  await withSession([{ content: "hi there" }], async ({ sim, controller, ctx, printed }) => {
    const registry = defaultCommands();
    await controller.runTurn("hello");
    await registry.dispatch(ctx, "/cost");
    const stats = sim.stats();
    const cost = printed.at(-1)!;
    assert.match(cost, new RegExp(`Prompt tokens: +${stats.promptTokens} \\(cache hit ${stats.hitTokens}`));
    assert.match(cost, new RegExp(`Completion tokens: +${stats.completionTokens} `));
    assert.match(cost, /Model calls: +1/);
    await registry.dispatch({ ...ctx, width: 1000 }, "/status");
    const status = printed.at(-1)!;
    assert.ok(status.includes(controller.sessionId) && status.includes(controller.sessionFile), status);
    assert.match(status, /Model: +deepseek-flash \(deepseek-flash\)/);
    assert.match(status, /Turns: +1, model calls 1, tool calls 0/);
  });
});

Deno.test("/status and /cost print aligned key/value tables that wrap at the face's width", async () => {
  await withSession([{ content: "hi" }], async ({ controller, ctx, printed }) => {
    const registry = defaultCommands();
    await controller.runTurn("hello");
    await registry.dispatch({ ...ctx, width: 50 }, "/status");
    const status = printed.at(-1)!.split("\n");
    const column = "Permissions:  ".length;
    assert.deepEqual(
      status.filter((line) => /^\S/.test(line)).map((line) => line.slice(0, column).trimEnd()),
      ["Model:", "Session:", "File:", "Permissions:", "Turns:"],
    );
    for (const line of status) {
      assert.ok(line.length <= 50, `within 50 columns: ${line}`);
      assert.notEqual(line[column], " ", `every value starts in one column: ${JSON.stringify(line)}`);
      if (/^\s/.test(line)) assert.ok(line.startsWith(" ".repeat(column)), line);
    }
    const file = status.slice(status.findIndex((line) => line.startsWith("File:")), -2);
    assert.ok(file.length > 1, "the long session path wraps");
    assert.equal(file.map((line) => line.slice(column)).join(""), controller.sessionFile);
    await registry.dispatch(ctx, "/cost");
    const cost = printed.at(-1)!.split("\n");
    const keys = cost.map((line) => line.slice(0, "Completion tokens:  ".length).trimEnd());
    assert.deepEqual(keys, ["Prompt tokens:", "Completion tokens:", "Model calls:", "Cost:"]);
    for (const line of cost) assert.match(line.slice("Completion tokens:  ".length), /^\S/);
  });
});

Deno.test("/compact [focus] summarises through the Controller", async () => {
  const script: ScriptedReply[] = [{ content: "hi" }, { content: "Goal: greet." }];
  await withSession(script, async ({ sim, controller, ctx, printed, events }) => {
    const registry = defaultCommands();
    await controller.runTurn("hello");
    await registry.dispatch(ctx, "/compact the greeting");
    assert.equal(printed.at(-1), "Conversation compacted.");
    assert.ok(events.some((event) => event.type === "compaction" && event.reason === "manual"));
    assert.ok(String(controller.history()[2]!.content).startsWith(SUMMARY_OPEN));
    assert.match(sim.requests[1]!.json.messages.at(-1).content, /\nFocus the summary on: the greeting$/);
  });
});

Deno.test("/reasoning-language reaches the next request; /quit asks the face to end", async () => {
  await withSession([{ content: "ok" }], async ({ sim, controller, ctx, printed, quits }) => {
    const registry = defaultCommands();
    await registry.dispatch(ctx, "/reasoning-language fr");
    assert.match(printed.at(-1)!, /^Usage: \/reasoning-language auto\|zh\|en$/);
    await registry.dispatch(ctx, "/reasoning-language zh");
    await controller.runTurn("hello");
    const user = sim.requests[0]!.json.messages.at(-1);
    assert.match(user.content, /Simplified Chinese/);
    await registry.dispatch(ctx, "/exit");
    assert.deepEqual(quits, [1]);
    assert.equal(sim.requests.length, 1, "no command reached the model");
  });
});

Deno.test("/todo shows the list the model wrote in this session", async () => {
  const todos = JSON.stringify({
    todos: [{ content: "read the code", status: "completed" }, {
      content: "fix the bug",
      status: "in_progress",
    }],
  });
  const script = [{ toolCalls: [{ name: "todo_write", arguments: todos }] }, { content: "Planned." }];
  await withSession(script, async ({ controller, ctx, printed }) => {
    const registry = defaultCommands();
    await registry.dispatch(ctx, "/todo");
    assert.equal(printed.at(-1), "The todo list is empty.");
    await controller.runTurn("plan it");
    await registry.dispatch(ctx, "/todos");
    assert.equal(printed.at(-1), "[x] read the code\n[>] fix the bug");
  });
});
