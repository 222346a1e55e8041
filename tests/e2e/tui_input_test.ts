import assert from "node:assert/strict";
import { withTui } from "../support/tui.ts";

Deno.test("tui input: /pe lists /permissions with its summary; Tab completes and its choices follow", async () => {
  await withTui([], async ({ pane, sim }) => {
    await pane.type("/pe");
    const menu = await pane.waitFor(/› \/permissions \[ask\|auto\|yolo\|plan\]/);
    assert.match(menu, /Show or set the permission mode/);
    await pane.keys("Tab");
    await pane.waitFor((screen) => screen.includes("› /permissions ") && /›\s+ask/.test(screen));
    await pane.type("au");
    await pane.waitFor(/› auto/);
    await pane.keys("Tab");
    await pane.waitFor(/› \/permissions auto /);
    await pane.keys("Enter");
    await pane.waitFor(/Permission mode: auto/);
    assert.equal(sim.requests.length, 0, "a slash command never reaches the model");
  });
});

Deno.test("tui input: @ completes a workspace file and the model receives its content in the last user message", async () => {
  const files = {
    "README.md": "fixture\n",
    "src/greeting.ts": "export const greeting = 'hello from the mentioned fixture';\n",
  };
  await withTui([{ content: "It exports a greeting." }], async ({ pane, sim }) => {
    await pane.type("explain @src/gre");
    await pane.waitFor(/› src\/greeting\.ts/);
    await pane.keys("Tab");
    await pane.waitFor(/› explain @src\/greeting\.ts /);
    await pane.keys("Enter");
    await pane.waitFor(/It exports a greeting\./);
    const messages = sim.requests[0]!.json.messages;
    assert.equal(
      messages.at(-1).content,
      'explain @src/greeting.ts\n\n<mentioned-file path="src/greeting.ts">\n' +
        "export const greeting = 'hello from the mentioned fixture';\n</mentioned-file>",
    );
    assert.ok(
      !messages[0].content.includes("hello from the mentioned fixture"),
      "the system prompt is untouched",
    );
  }, { files });
});

Deno.test("tui input: a large paste shows as a placeholder and the model receives all of it", async () => {
  const pasted = Array.from({ length: 30 }, (_, i) => `pasted line ${i + 1} 粘贴`).join("\n");
  await withTui([{ content: "Got all thirty lines." }], async ({ pane, sim }) => {
    await pane.type("summarise ");
    await pane.waitFor(/› summarise/);
    await pane.paste(pasted);
    const screen = await pane.waitFor(/› summarise \[Pasted text #1 · 30 lines\]/);
    assert.ok(!screen.includes("pasted line 2 "), "the pasted lines are not in the input");
    await pane.keys("Enter");
    await pane.waitFor(/Got all thirty lines\./);
    assert.equal(sim.requests[0]!.json.messages.at(-1).content, `summarise ${pasted}`);
  });
});

Deno.test("tui input: Esc closes the menu during a turn without cancelling the turn", async () => {
  await withTui(
    [{ content: "never shown", fault: { kind: "hang" }, keepAlive: 1 }],
    async ({ pane }) => {
      await pane.type("slow task");
      await pane.keys("Enter");
      await pane.waitFor(/working… Ctrl\+C cancels/);
      await pane.type("/he");
      await pane.waitFor(/› \/help \[command\]/);
      await pane.keys("Escape");
      await pane.waitFor((screen) => !screen.includes("/help [command]"));
      await pane.type("x");
      const screen = await pane.waitFor(/› \/hex/);
      assert.match(screen, /working… Ctrl\+C cancels/, "the turn is still running");
      await pane.keys("C-c");
      const cleared = await pane.waitFor((after) => !after.includes("/hex"));
      assert.match(cleared, /working… Ctrl\+C cancels/, "Ctrl+C on a draft clears the draft only");
      await pane.keys("C-c");
      await pane.waitFor((after) => !after.includes("working…"));
    },
  );
});

Deno.test("tui input: a message sent while a turn runs is queued and sent when the turn ends", async () => {
  const slow = "The first answer streams slowly, word by word, so there is time to type ahead.";
  await withTui(
    [{ content: slow, tokensPerSecond: 20 }, { content: "Second done." }],
    async ({ pane, sim }) => {
      await pane.type("first");
      await pane.keys("Enter");
      await pane.waitFor(/working… Ctrl\+C cancels/);
      await pane.type("second");
      await pane.keys("Enter");
      await pane.waitFor(/Queued, sent when the current turn ends: second/);
      await pane.waitFor(/Second done\./);
      assert.equal(sim.requests.length, 2);
      assert.match(JSON.stringify(sim.requests[1]!.json.messages.at(-1)), /second/);
    },
  );
});
