/**
 * Answered questions (the `ask` tool) in the web UI, settled as approvals are: once answered, declined or
 * cancelled by Stop, a question card leaves a line saying what was asked and how it was answered, and a
 * reload (the session rendered from its log by the Controller's snapshot) shows the same lines, with no
 * card left to answer. The model's text shows as text, never markup. Screenshots go to
 * test-artifacts/serve-browser/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import {
  artifacts,
  assertReloadShowsSame,
  browserTest,
  prompt,
  settledLines,
  withServePage,
} from "../support/serve_browser.ts";

function ask(header: string, question: string, labels: string[], multiSelect = false): ScriptedReply {
  const options = labels.map((label) => ({ label }));
  const args = { questions: [{ header, question, options, ...(multiSelect ? { multiSelect } : {}) }] };
  return { toolCalls: [{ name: "ask", arguments: JSON.stringify(args) }] };
}

browserTest(
  "serve web UI: answered and declined questions stay as settled lines, live and after a reload",
  async () => {
    const script = [
      ask("Indent", "Tabs or <b>spaces</b>?", ["Tabs", "<i>Spaces</i>"]),
      ask("Checks", "Which checks?", ["lint", "test", "fmt"], true),
      ask("Name", "What name?", ["a", "b"]),
      { content: "Noted the choices." },
    ];
    await withServePage({ sim: { script } }, async ({ page, sim }) => {
      await prompt(page, "set up the formatter");
      const indent = page.locator(".card", { hasText: "Indent: Tabs or <b>spaces</b>?" });
      await indent.getByLabel("<i>Spaces</i>").check();
      await indent.getByRole("button", { name: "Answer" }).click();
      const checks = page.locator(".card", { hasText: "Checks: Which checks?" });
      await checks.getByLabel("lint").check();
      await checks.getByLabel("fmt").check();
      await checks.getByRole("button", { name: "Answer" }).click();
      const name = page.locator(".card", { hasText: "Name: What name?" });
      await name.getByRole("button", { name: "Decline" }).click();
      await page.locator(".answer", { hasText: "Noted the choices." }).waitFor();
      const live = await settledLines(page, "question");
      assert.deepEqual(live, [
        "answered: Indent: Tabs or <b>spaces</b>? → <i>Spaces</i>",
        "answered: Checks: Which checks? → lint, fmt",
        "declined: Name: What name?",
      ]);
      assert.equal(await page.locator("#log b, #log i").count(), 0, "the model's text is never markup");
      assert.equal(await page.locator("#log .card").count(), 0, "no card is left to answer");
      const tools = sim.requests[3]!.json.messages.filter((m: { role: string }) => m.role === "tool");
      assert.match(tools[0].content, /Indent: "<i>Spaces<\/i>"/);
      await assertReloadShowsSame(page, {
        answer: "Noted the choices.",
        kind: "question",
        live,
        shot: "questions-reloaded",
      });
    });
  },
);

browserTest(
  "serve web UI: a question cut off by Stop settles as unanswered, live and after a reload",
  async () => {
    await withServePage(
      { sim: { script: [ask("Indent", "Tabs or spaces?", ["Tabs", "Spaces"])] } },
      async ({ page }) => {
        await prompt(page, "set up the formatter");
        await page.locator(".card", { hasText: "Indent: Tabs or spaces?" }).waitFor();
        await page.click("#cancel");
        const line = page.locator("#log .note.settled.question");
        await line.waitFor();
        assert.deepEqual(await settledLines(page, "question"), ["unanswered: Indent: Tabs or spaces?"]);
        assert.equal(await page.locator("#log .card").count(), 0, "the card is gone");
        const afterCall = page.locator("#log .tool.failed + .note.settled.question");
        await page.locator("body:not(.busy)").waitFor({ state: "attached" });
        assert.equal(await afterCall.count(), 1, "the line follows the ask call it settled");

        await page.reload();
        await line.waitFor();
        await page.screenshot({
          path: join(await artifacts("serve-browser"), "question-cancelled-reloaded.png"),
        });
        assert.deepEqual(await settledLines(page, "question"), ["unanswered: Indent: Tabs or spaces?"]);
        assert.equal(await page.locator("#log .card").count(), 0);
        assert.equal(await afterCall.count(), 1);
      },
    );
  },
);
