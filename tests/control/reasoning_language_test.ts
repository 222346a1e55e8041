import assert from "node:assert/strict";
import { reasoningLanguageNote } from "../../src/control/reasoning_language.ts";
import { withController } from "../support/controller_session.ts";

interface Body {
  messages: { role: string; content: string }[];
}

Deno.test("setReasoningLanguage() rides the tail of the next user message and keeps the system prompt", async () => {
  await withController(
    { script: [{ content: "one" }, { content: "two" }, { content: "three" }], listen: false },
    async ({ sim, controller }) => {
      controller.setReasoningLanguage("zh");
      controller.setReasoningLanguage("zh");
      await controller.runTurn("first");
      await controller.runTurn("second");
      controller.setReasoningLanguage("en");
      await controller.runTurn("third");
      const bodies = sim.requests.map((request) => JSON.parse(request.body) as Body);
      assert.equal(bodies.length, 3);
      const last = (body: Body) => body.messages.at(-1)!.content;
      const zh = reasoningLanguageNote("zh");
      assert.ok(last(bodies[0]!).startsWith("first"));
      assert.equal(last(bodies[0]!).split(zh).length, 2, "the note is sent once");
      assert.equal(last(bodies[1]!), "second");
      assert.ok(
        last(bodies[2]!).startsWith("third") && last(bodies[2]!).includes(reasoningLanguageNote("en")),
      );
      const system = bodies.map((body) => JSON.stringify(body.messages[0]));
      assert.equal(system[1], system[0]);
      assert.equal(system[2], system[0]);
      const prefix = JSON.stringify(bodies[1]!.messages);
      assert.ok(
        JSON.stringify(bodies[2]!.messages).startsWith(prefix.slice(0, -1)),
        "earlier messages unchanged",
      );
    },
  );
});
