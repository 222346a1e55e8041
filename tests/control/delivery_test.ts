/**
 * Effect tests for verified delivery through the real assembly (boot → Controller → loop → dispatch →
 * gate → request body) against the simulator: each gate blocks and then lets the turn pass, refusals
 * are bounded, every refusal is a warning the faces see and the session log keeps, delivery is off by
 * default, and the system prompt and tool bytes are the same with it on and off.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ReasonixEvent } from "../../src/control/events.ts";
import { isHostNote } from "../../src/agent/host_note.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { assertPrependOnly, assertStablePrefix, splitBody } from "../support/prefix_guard.ts";
import { type Controller, type ControllerSession, withController } from "../support/controller_session.ts";
import { hostEnv } from "../support/host_env.ts";

type Args = Record<string, unknown>;

const VERIFY_TOML = `[agent]\ndelivery = "verify"\n`;

/** The project's own check: `sh scripts/check.sh <word> <file>` passes when the file holds the word. */
const CHECK_SCRIPT = `#!/bin/sh\ngrep -q "$1" "$2"\n`;

function answer(content: string): ScriptedReply {
  return { reasoning: "answer", content };
}

function call(name: string, args: Args): ScriptedReply {
  return { reasoning: "call", toolCalls: [{ name, arguments: JSON.stringify(args) }] };
}

function todos(...items: [string, string][]): ScriptedReply {
  return call("todo_write", { todos: items.map(([content, status]) => ({ content, status })) });
}

function completeStep(command: string): ScriptedReply {
  const args = { summary: "checked", evidence: "verification", command };
  return call("use_capability", { action: "call", capability_id: "tool:complete_step", arguments: args });
}

function withSession(
  setup: { script: ScriptedReply[]; toml?: string; files?: Record<string, string> },
  body: (session: ControllerSession) => Promise<void>,
): Promise<void> {
  return withController({
    script: setup.script,
    files: { "a.txt": "alpha\n", "scripts/check.sh": CHECK_SCRIPT, ...setup.files },
    env: hostEnv(),
    flags: { permissionMode: "yolo" },
    ...(setup.toml ? { extraToml: setup.toml } : {}),
  }, body);
}

type Message = { role: string; content: string };

function messages(sim: DeepSeekSim, index: number): Message[] {
  return sim.requests[index]!.json.messages as Message[];
}

/** The tool messages of request `index`, oldest first. */
function toolResults(sim: DeepSeekSim, index: number): string[] {
  return messages(sim, index).filter((m) => m.role === "tool").map((m) => m.content);
}

function warnings(events: readonly ReasonixEvent[]): string[] {
  return events.flatMap((event) => event.type === "warning" ? [event.message] : []);
}

/** The warning notices the session log recorded. */
async function loggedNotices(controller: Controller): Promise<string[]> {
  const lines = (await Deno.readTextFile(controller.sessionFile)).split("\n").filter((line) => line !== "");
  return lines.map((line) => JSON.parse(line)).flatMap((record) =>
    record.type === "entry" && record.entry?.kind === "notice" ? [record.entry.text as string] : []
  );
}

Deno.test("delivery gate 1: a writer before todo_write is refused with a tool error, then runs once the list exists", async () => {
  const script = [
    call("write_file", { path: "b.txt", content: "b\n" }),
    call("bash", { command: "printf 'c\\n' > c.txt" }),
    call("bash", { command: "cat a.txt" }),
    todos(["Write b.txt", "in_progress"], ["Verify b.txt with the check script", "pending"]),
    call("write_file", { path: "b.txt", content: "b\n" }),
    call("bash", { command: "sh scripts/check.sh b b.txt" }),
    completeStep("sh scripts/check.sh b b.txt"),
    answer("Added b.txt; verified with the check script."),
  ];
  await withSession({ script, toml: VERIFY_TOML }, async ({ sim, ws, events, controller }) => {
    assert.equal(controller.delivery.mode, "verify");
    const outcome = await controller.runTurn("add b.txt");
    assert.equal(outcome.subtype, "success", outcome.result);
    const first = toolResults(sim, 1)[0]!;
    assert.match(first, /^Error \[delivery\.no_acceptance_list\]: Not run: verified delivery is on/);
    assert.match(first, /Call todo_write first/);
    assert.match(toolResults(sim, 2)[1]!, /^Error \[delivery\.no_acceptance_list\]/, "writer bash too");
    assert.match(toolResults(sim, 3)[2]!, /alpha/, "a reading bash runs");
    assert.ok(!existsSync(join(ws, "c.txt")));
    assert.equal(Deno.readTextFileSync(join(ws, "b.txt")), "b\n", "after todo_write the write runs");
    assert.match(
      toolResults(sim, 7).at(-1)!,
      /Completed "Write b\.txt": checked\nEvidence: verified with `sh scripts\/check\.sh b b\.txt`/,
    );
    assert.equal(sim.requests.length, 8, "the final answer was accepted at once");
    const refusals = warnings(events).filter((w) => w.startsWith("Verified delivery refused"));
    assert.deepEqual(refusals, [
      `Verified delivery refused "write_file": nothing may change before a todo_write acceptance list exists`,
      `Verified delivery refused "bash": nothing may change before a todo_write acceptance list exists`,
    ]);
    assert.deepEqual((await loggedNotices(controller)).filter((n) => n.startsWith("Verified")), refusals);
  });
});

Deno.test("delivery gate 2: an answer without a passing verification cited by complete_step is refused until both happen", async () => {
  const script = [
    todos(["Rename alpha to beta", "in_progress"]),
    call("edit_file", { path: "a.txt", old_string: "alpha", new_string: "beta" }),
    answer("Fixed: a.txt now says beta."),
    call("bash", { command: "sh scripts/check.sh gamma a.txt" }),
    call("bash", { command: "sh scripts/check.sh beta a.txt" }),
    answer("Fixed and checked."),
    completeStep("sh  scripts/check.sh beta a.txt"),
    answer("Fixed: a.txt says beta, verified with the check script."),
  ];
  await withSession({ script, toml: VERIFY_TOML }, async ({ sim, events, controller }) => {
    const outcome = await controller.runTurn("fix a.txt so it says beta");
    assert.equal(outcome.subtype, "success", outcome.result);
    assert.equal(outcome.result, "Fixed: a.txt says beta, verified with the check script.");
    const firstNote = messages(sim, 3).at(-1)!;
    assert.equal(firstNote.role, "user");
    assert.ok(isHostNote(firstNote.content), firstNote.content);
    assert.match(firstNote.content, /no verification command has passed since the last change/);
    assert.match(toolResults(sim, 4).at(-1)!, /\[exit code 1\]/, "a failing check does not count");
    const secondNote = messages(sim, 6).at(-1)!;
    assert.ok(isHostNote(secondNote.content));
    assert.match(secondNote.content, /`sh scripts\/check\.sh beta a\.txt` passed after your last change/);
    assert.match(secondNote.content, /"tool:complete_step"/);
    assert.equal(sim.requests.length, 8);
    const refusals = warnings(events).filter((w) =>
      w.startsWith("Verified delivery refused the final answer")
    );
    assert.deepEqual(refusals, [
      "Verified delivery refused the final answer (1/2): no verification command exited 0 after the last change",
      "Verified delivery refused the final answer (2/2): no complete_step cited the passing verification " +
      `command "sh scripts/check.sh beta a.txt"`,
    ]);
    assert.deepEqual((await loggedNotices(controller)).filter((n) => n.includes("final answer")), refusals);
    const replayed = controller.snapshot();
    assert.equal(replayed.filter((e) => e.type === "turn_started").length, 1, "a host note is not a turn");
    assert.deepEqual(warnings(replayed).filter((w) => w.includes("final answer")), refusals, "replayed too");
    const bodies = sim.requests.map((request) => request.body);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
  });
});

Deno.test("delivery gate 2: a passing command that checks nothing does not verify; the note says so and deno test does", async () => {
  const script = [
    todos(["Rename alpha to beta", "in_progress"], ["Test it", "pending"]),
    call("edit_file", { path: "a.txt", old_string: "alpha", new_string: "beta" }),
    call("bash", { command: "echo done" }),
    completeStep("echo done"),
    answer("Fixed: a.txt says beta."),
    call("bash", { command: "cat a.txt && git status; grep -q beta a.txt" }),
    call("bash", { command: "deno test --no-check --allow-read a_test.ts" }),
    completeStep("deno test --no-check --allow-read a_test.ts"),
    answer("Fixed: a.txt says beta; deno test passes."),
  ];
  const files = {
    "a_test.ts":
      `Deno.test("a.txt says beta", () => {\n  if (Deno.readTextFileSync("a.txt") !== "beta\\n") throw new Error("a.txt");\n});\n`,
  };
  await withSession({ script, toml: VERIFY_TOML, files }, async ({ sim, events, controller }) => {
    const outcome = await controller.runTurn("fix a.txt so it says beta");
    assert.equal(outcome.subtype, "success", outcome.result);
    assert.equal(outcome.result, "Fixed: a.txt says beta; deno test passes.");
    assert.match(toolResults(sim, 3).at(-1)!, /^done/, "echo ran and exited 0");
    const note = messages(sim, 5).at(-1)!;
    assert.ok(isHostNote(note.content), note.content);
    assert.match(note.content, /`echo done` exited 0, but it does not verify anything/);
    assert.match(note.content, /only prints or inspects \(echo, cat, ls, grep, git status\) is not a check/);
    assert.match(note.content, /`deno test`, `npm test`, `pytest`, .*`\.\/scripts\/test\.sh`/);
    assert.match(toolResults(sim, 7).at(-1)!, /1 passed \| 0 failed/, "the test ran");
    assert.equal(sim.requests.length, 9, "one refusal; the answer after deno test stands");
    const refusals = warnings(events).filter((w) =>
      w.startsWith("Verified delivery refused the final answer")
    );
    assert.deepEqual(refusals, [
      "Verified delivery refused the final answer (1/2): no verification command exited 0 after the last " +
      `change; "echo done" checks nothing`,
    ]);
    assert.equal(controller.delivery.status().turn?.verified, "deno test --no-check --allow-read a_test.ts");
    assertStablePrefix(sim.requests.map((request) => request.body));
  });
});

Deno.test("delivery gate 2: [agent] verify_commands names a project's own check", async () => {
  const script = [
    todos(["Rename alpha to beta", "in_progress"]),
    call("edit_file", { path: "a.txt", old_string: "alpha", new_string: "beta" }),
    call("bash", { command: "grep -q beta a.txt" }),
    completeStep("grep -q beta a.txt"),
    answer("Fixed: a.txt says beta."),
  ];
  const toml = `${VERIFY_TOML}verify_commands = ["grep -q beta"]\n`;
  await withSession({ script, toml }, async ({ sim, controller }) => {
    const outcome = await controller.runTurn("fix a.txt so it says beta");
    assert.equal(outcome.subtype, "success", outcome.result);
    assert.equal(sim.requests.length, 5, "the configured command verified the change");
    assert.equal(controller.delivery.status().turn?.verified, "grep -q beta a.txt");
  });
});

Deno.test("delivery gate 3: a done claim with no observed change on a fix task is refused; an honest answer passes", async () => {
  const script = [
    answer("Fixed the typo in a.txt."),
    answer("I did not change anything: a.txt has no typo."),
    answer("完成了。"),
    answer("a.txt 没有错别字，我没有修改任何内容。"),
  ];
  await withSession({ script, toml: VERIFY_TOML }, async ({ sim, events, controller }) => {
    const fixed = await controller.runTurn("fix the typo in a.txt");
    assert.equal(fixed.subtype, "success");
    assert.equal(fixed.result, "I did not change anything: a.txt has no typo.");
    const note = messages(sim, 1).at(-1)!;
    assert.ok(isHostNote(note.content));
    assert.match(note.content, /the host observed no successful change in this turn/);
    const chinese = await controller.runTurn("修复 a.txt 里的错别字");
    assert.equal(chinese.result, "a.txt 没有错别字，我没有修改任何内容。", "the Chinese claim was refused");
    assert.equal(sim.requests.length, 4);
    assert.deepEqual(controller.delivery.status().turn?.refusals, 1);
    const refusals = warnings(events).filter((w) => w.startsWith("Verified delivery refused"));
    assert.equal(refusals.length, 2);
    assert.match(
      refusals[0]!,
      /the task asks for a change, the answer says it is done, and no change was observed/,
    );
  });
});

Deno.test("delivery: a question is not a change task, so a done answer without a change stands", async () => {
  await withSession(
    { script: [answer("Done: a.txt says alpha.")], toml: VERIFY_TOML },
    async ({ sim, controller }) => {
      const outcome = await controller.runTurn("what does a.txt say?");
      assert.equal(outcome.subtype, "success");
      assert.equal(sim.requests.length, 1);
    },
  );
});

Deno.test("delivery: refusals are bounded; the turn then ends with delivery.unverified and the answer kept", async () => {
  const script = [
    todos(["Write b.txt", "in_progress"]),
    call("write_file", { path: "b.txt", content: "b\n" }),
    answer("Done."),
    call("bash", { command: "sh scripts/check.sh b b.txt" }),
    call("write_file", { path: "b.txt", content: "bb\n" }),
    completeStep("sh scripts/check.sh b b.txt"),
    answer("Done."),
    answer("Done, really."),
    answer("next turn"),
  ];
  await withSession({ script, toml: VERIFY_TOML }, async ({ sim, events, controller }) => {
    const outcome = await controller.runTurn("implement b.txt");
    assert.equal(outcome.subtype, "error_during_execution");
    assert.equal(outcome.result, "Done, really.");
    assert.deepEqual(outcome.error, {
      code: "delivery.unverified",
      message: "Delivery was not verified: no verification command exited 0 after the last change",
    });
    assert.equal(sim.requests.length, 8, "two refusals, then the third answer ends the turn");
    assert.match(toolResults(sim, 6).at(-1)!, /Completed "Write b\.txt"/, "the citation predates the change");
    const done = events.filter((event) => event.type === "turn_done");
    assert.equal(done.at(-1)?.type === "turn_done" && done.at(-1)?.error?.code, "delivery.unverified");
    assert.ok(warnings(events).includes(outcome.error!.message));
    assert.ok((await loggedNotices(controller)).includes(outcome.error!.message));
    const next = await controller.runTurn("what is in b.txt?");
    assert.equal(next.subtype, "success", "the next turn starts clean");
  });
});

Deno.test("delivery: off by default changes nothing; /delivery and the goal-mode setter switch it", async () => {
  const script = [
    call("write_file", { path: "b.txt", content: "b\n" }),
    answer("Done."),
    call("write_file", { path: "c.txt", content: "c\n" }),
    answer("Done."),
  ];
  await withSession({ script }, async ({ sim, ws, events, controller }) => {
    assert.equal(controller.delivery.mode, "off");
    const off = await controller.runTurn("add b.txt");
    assert.equal(off.subtype, "success");
    assert.equal(sim.requests.length, 2);
    assert.ok(existsSync(join(ws, "b.txt")));
    assert.ok(messages(sim, 1).every((m) => m.role !== "user" || !isHostNote(m.content)));
    assert.deepEqual(warnings(events), []);
    const printed: string[] = [];
    const slash = async (input: string) => {
      const submitted = await controller.submit(input);
      assert.equal(submitted.kind, "command");
      if (submitted.kind === "command") printed.push(submitted.output.join("\n"));
    };
    await slash("/delivery");
    await slash("/delivery maybe");
    await slash("/delivery on");
    assert.deepEqual(printed.slice(0, 3), [
      "Verified delivery: off",
      "Use /delivery, /delivery on, /delivery off or /delivery status.",
      "Verified delivery: on (from the next turn)",
    ]);
    assert.equal(controller.delivery.mode, "verify");
    controller.delivery.setMode("verify");
    await controller.runTurn("add c.txt");
    assert.match(toolResults(sim, 3).at(-1)!, /^Error \[delivery\.no_acceptance_list\]/);
    await slash("/delivery status");
    assert.match(
      printed.at(-1)!,
      /^Verified delivery: on \(from the next turn\)\nLast turn: change observed no/,
    );
    await slash("/delivery off");
    assert.equal(controller.delivery.mode, "off");
  });
});

Deno.test("delivery: the system prompt and tool bytes are the same with delivery on and off", async () => {
  const script = () => [answer("Fixed.")];
  const firstBodies: string[] = [];
  for (const toml of [undefined, VERIFY_TOML]) {
    await withSession({ script: script(), ...(toml ? { toml } : {}) }, async ({ sim, controller }) => {
      await controller.runTurn("hello");
      firstBodies.push(sim.requests[0]!.body);
    });
  }
  const [off, on] = firstBodies.map((body) => splitBody(body));
  assert.equal(on!.system, off!.system, "system prompt bytes");
  assert.equal(on!.tools, off!.tools, "tool schema bytes");
  assert.ok(!on!.tools.includes("delivery"), "no delivery tool surface");
});

Deno.test("delivery gate 1: a writer MCP tool is refused before the list and a read-only one runs", async () => {
  const fixture = join(import.meta.dirname!, "../fixtures/mcp/tools_server.ts");
  const toml = [
    VERIFY_TOML,
    `[[plugins]]`,
    `name = "fx"`,
    `command = ${JSON.stringify(Deno.execPath())}`,
    `args = ${JSON.stringify(["run", "-A", "--quiet", fixture])}`,
    ``,
  ].join("\n");
  const script = [
    {
      reasoning: "call",
      toolCalls: [
        { name: "mcp__fx__wipe", arguments: JSON.stringify({ target: "db" }) },
        { name: "mcp__fx__lookup", arguments: JSON.stringify({ key: "k" }) },
      ],
    },
    answer("I could not wipe it: the host wants a todo list first."),
  ];
  await withSession({ script, toml }, async ({ sim, controller }) => {
    await controller.runTurn("look up k, then wipe the db");
    const [wipe, lookup] = toolResults(sim, 1);
    assert.match(wipe!, /^Error \[delivery\.no_acceptance_list\]: Not run: .*"mcp__fx__wipe"/);
    assert.equal(lookup, "value of k");
  });
});

Deno.test("delivery gate 1: plan mode and deny rules keep their own refusal of a writer", async () => {
  const toml = `${VERIFY_TOML}\n[permissions]\ndeny = ["Bash(touch *)"]\n`;
  const script = [
    call("bash", { command: "touch c.txt" }),
    answer("Nothing was changed."),
    call("write_file", { path: "b.txt", content: "b\n" }),
    answer("Nothing was changed."),
  ];
  await withSession({ script, toml }, async ({ sim, controller }) => {
    await controller.runTurn("touch c.txt");
    assert.match(toolResults(sim, 1)[0]!, /^Error \[permission\.denied\]/);
    controller.setPermissionMode("plan");
    await controller.runTurn("add b.txt");
    assert.match(toolResults(sim, 3).at(-1)!, /^Error \[permission\.plan_mode\]/);
  });
});
