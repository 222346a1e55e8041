import assert from "node:assert/strict";
import { withController } from "../support/controller_session.ts";

Deno.test("Controller.submit() routes a slash command, #note, an unknown /word and plain text", async () => {
  await withController(
    { script: [{ content: "hello back" }] },
    async ({ sim, controller, events }) => {
      const answers = () => events.flatMap((e) => e.type === "command_output" ? [e] : []);
      const todo = await controller.submit("/todo");
      assert.deepEqual(todo, { kind: "command", command: "todo", output: ["The todo list is empty."] });
      assert.deepEqual(answers(), [{
        type: "command_output",
        command: "todo",
        text: "The todo list is empty.",
        format: "text",
      }]);

      const note = await controller.submit("#use tabs");
      assert.equal(note.kind === "command" && note.command, "remember");
      assert.match(note.kind === "command" ? note.output[0]! : "", /use tabs/);
      assert.equal(answers().length, 2, "the note's answer is an event too");

      const unknown = await controller.submit("/nope");
      assert.equal(unknown.kind, "unknown");
      assert.match(unknown.kind === "unknown" ? unknown.output[0]! : "", /nope/);
      assert.equal(sim.requests.length, 0, "no command reaches the model");

      const turn = await controller.submit("hello");
      assert.deepEqual(turn, { kind: "turn", outcome: { subtype: "success", result: "hello back" } });
      assert.equal(sim.requests.length, 1);
      assert.ok(events.some((e) => e.type === "turn_started" && e.text === "hello"));
    },
  );
});

Deno.test("Controller.submit() hands face-only actions to the face's hooks (/quit)", async () => {
  await withController({ listen: false }, async ({ controller }) => {
    let quit = 0;
    assert.deepEqual(await controller.submit("/quit", { quit: () => quit++ }), {
      kind: "command",
      command: "quit",
      output: [],
    });
    assert.equal(quit, 1);
  });
});

Deno.test("Controller.submit() refuses /reload while a turn runs (session.busy), for every face", async () => {
  await withController({ script: [{ fault: { kind: "hang" } }], listen: false }, async ({ controller }) => {
    assert.equal(controller.busy, false);
    const turn = controller.submit("think forever");
    assert.equal(controller.busy, true);
    await assert.rejects(controller.submit("/reload"), { code: "session.busy" });
    const todo = await controller.submit("/todo");
    assert.equal(todo.kind, "command", "other commands still answer during a turn");
    controller.interrupt();
    await turn;
    assert.equal(controller.busy, false);
    assert.equal((await controller.submit("/reload")).kind, "command");
  });
});
