import assert from "node:assert/strict";
import { join } from "node:path";
import { withController } from "../support/controller_session.ts";

Deno.test("Controller tells the next turn which files changed on disk since the model saw them", async () => {
  const read = { toolCalls: [{ name: "read_file", arguments: `{"path":"a.txt"}` }] };
  const edit = {
    toolCalls: [{ name: "edit_file", arguments: `{"path":"b.txt","old_string":"beta","new_string":"BETA"}` }],
  };
  await withController({
    script: [read, edit, { content: "seen" }, { content: "noted" }, { content: "quiet" }],
    files: { "a.txt": "alpha\n", "b.txt": "beta\n" },
    flags: { permissionMode: "auto" },
    listen: false,
  }, async ({ sim, controller, ws }) => {
    await controller.runTurn("look");
    await Deno.writeTextFile(join(ws, "a.txt"), "alpha changed elsewhere\n");
    await Deno.utime(join(ws, "a.txt"), new Date(), new Date(Date.now() + 5000));
    await controller.runTurn("again");
    const noted = sim.requests[3]!.json.messages.at(-1).content;
    assert.equal(
      noted,
      "again\n\n<turn-context>\nChanged on disk since you last read or wrote them: a.txt.\n</turn-context>",
      "the agent's own edit of b.txt is not reported",
    );
    await controller.runTurn("and now");
    assert.equal(sim.requests[4]!.json.messages.at(-1).content, "and now");
  });
});

Deno.test("Controller reminds the next turn of unfinished todo items", async () => {
  const todos =
    `{"todos":[{"content":"fix the parser","status":"in_progress"},{"content":"add tests","status":"pending"}]}`;
  await withController({
    script: [{ toolCalls: [{ name: "todo_write", arguments: todos }] }, { content: "planned" }, {
      content: "ok",
    }],
    listen: false,
  }, async ({ sim, controller }) => {
    await controller.runTurn("plan it");
    assert.equal(
      sim.requests[0]!.json.messages.at(-1).content,
      "plan it",
      "no reminder before a list exists",
    );
    await controller.runTurn("go on");
    assert.equal(
      sim.requests[2]!.json.messages.at(-1).content,
      "go on\n\n<turn-context>\nYour todo list has 2 unfinished items: [>] fix the parser; [ ] add tests.\n</turn-context>",
    );
  });
});
