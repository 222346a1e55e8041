/**
 * An interrupted turn's closing note ("[This turn ended without a reply: …]") stays in the history the
 * model gets, but a face replaying the session shows the turn's end as it did live: no extra text.
 */
import assert from "node:assert/strict";
import { withController } from "../support/controller_session.ts";

const CLOSING_NOTE = /^\[This turn ended without a reply/;

Deno.test("replay: an interrupted turn shows its end as live did, without the closing note's text", async () => {
  await withController({
    script: [{ toolCalls: [{ name: "bash", arguments: `{"command":"sleep 20"}` }] }],
    flags: { permissionMode: "yolo" },
    extraToml: "[sandbox]\nbash = false\n",
  }, async ({ controller, events }) => {
    controller.subscribe((event) => {
      if (event.type === "tool_call") setTimeout(() => controller.interrupt(), 100);
    });
    const outcome = await controller.runTurn("wait");
    assert.notEqual(outcome.subtype, "success");
    const noteIn = (list: typeof events) =>
      list.filter((event) => event.type === "text" && CLOSING_NOTE.test(event.text));
    assert.deepEqual(noteIn(events), [], "live shows no closing note");
    assert.ok(controller.history().some((m) => m.role === "assistant" && CLOSING_NOTE.test(m.content ?? "")));
    const replayed = controller.snapshot();
    assert.deepEqual(noteIn(replayed), []);
    const ends = (list: typeof events) =>
      list.filter((event) => event.type === "turn_done").map((event) =>
        event.type === "turn_done" && event.subtype
      );
    assert.deepEqual(ends(replayed), ends(events));
  });
});
