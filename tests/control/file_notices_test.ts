import assert from "node:assert/strict";
import { join } from "node:path";
import { bootController } from "../../src/control/boot.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";

Deno.test("Controller tells the next turn which files changed on disk since the model saw them", async () => {
  const read = { toolCalls: [{ name: "read_file", arguments: `{"path":"a.txt"}` }] };
  const edit = {
    toolCalls: [{ name: "edit_file", arguments: `{"path":"b.txt","old_string":"beta","new_string":"BETA"}` }],
  };
  const sim = await DeepSeekSim.start({
    script: [read, edit, { content: "seen" }, { content: "noted" }, { content: "quiet" }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n", "b.txt": "beta\n" });
  const controller = await bootController({
    cwd: ws,
    headless: true,
    env: {},
    paths: resolvePaths({ REASONIX_HOME: home }),
    flags: { permissionMode: "auto" },
  });
  try {
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
  } finally {
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("Controller reminds the next turn of unfinished todo items", async () => {
  const todos =
    `{"todos":[{"content":"fix the parser","status":"in_progress"},{"content":"add tests","status":"pending"}]}`;
  const sim = await DeepSeekSim.start({
    script: [{ toolCalls: [{ name: "todo_write", arguments: todos }] }, { content: "planned" }, {
      content: "ok",
    }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const controller = await bootController({
    cwd: ws,
    headless: true,
    env: {},
    paths: resolvePaths({ REASONIX_HOME: home }),
  });
  try {
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
  } finally {
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
