import assert from "node:assert/strict";
import { join } from "node:path";
import type { bootController } from "../../src/control/boot.ts";
import type { ApprovalRequest } from "../../src/control/events.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";
import { toolResults } from "../support/sim_messages.ts";

type Controller = Awaited<ReturnType<typeof bootController>>;

async function withSession(
  script: ScriptedReply[],
  mode: string,
  body: (s: { sim: DeepSeekSim; controller: Controller; ws: string }) => Promise<void>,
) {
  await withController({
    script,
    files: { "a.txt": "alpha\nbeta\n" },
    headless: false,
    flags: { permissionMode: mode },
    listen: false,
  }, async ({ sim, controller, ws }) => {
    await body({ sim, controller, ws });
  });
}

function call(name: string, args: object): ScriptedReply {
  return { toolCalls: [{ name, arguments: JSON.stringify(args) }] };
}

/** Answers each card after `meanwhile` runs, as a person who took their time would. */
function approveAfter(controller: Controller, meanwhile: () => Promise<void>): ApprovalRequest[] {
  const seen: ApprovalRequest[] = [];
  controller.subscribe((event) => {
    if (event.type !== "approval_requested") return;
    seen.push(event.request);
    void meanwhile().then(() => controller.answerApproval(event.request.id, "allow_once"));
  });
  return seen;
}

const EDIT = call("edit_file", { path: "a.txt", old_string: "beta", new_string: "gamma" });

Deno.test("an edit approved after the file changed on disk is refused and writes nothing", async () => {
  await withSession([EDIT, { content: "done" }], "ask", async ({ sim, controller, ws }) => {
    const file = join(ws, "a.txt");
    const seen = approveAfter(controller, () => Deno.writeTextFile(file, "alpha\nbeta\nextra\n"));
    await controller.runTurn("edit a.txt");
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.preview?.newText, "alpha\ngamma\n");
    assert.equal(await Deno.readTextFile(file), "alpha\nbeta\nextra\n");
    const [result] = toolResults(sim);
    assert.match(result!, /^Error \[tool\.file_changed\]: Cannot write "a\.txt": it changed on disk/);
    assert.match(result!, /read the file again/);
  });
});

Deno.test("an approved change writes exactly the previewed bytes", async () => {
  const script = [
    call("write_file", { path: "new.txt", content: "one\ntwo\n" }),
    EDIT,
    { content: "done" },
  ];
  await withSession(script, "ask", async ({ controller, ws }) => {
    const written: string[] = [];
    const seen = approveAfter(controller, () => {
      written.push("approved");
      return Promise.resolve();
    });
    await controller.runTurn("write and edit");
    assert.deepEqual(written, ["approved", "approved"]);
    assert.equal(await Deno.readTextFile(join(ws, "new.txt")), seen[0]!.preview?.newText);
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), seen[1]!.preview?.newText);
  });
});

Deno.test("auto mode applies the planned edit without asking", async () => {
  await withSession([EDIT, { content: "done" }], "auto", async ({ sim, controller, ws }) => {
    await controller.runTurn("edit a.txt");
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "alpha\ngamma\n");
    assert.match(toolResults(sim)[0]!, /^Edited a\.txt: 1 replacement/);
  });
});
