/**
 * The web UI's plan card in headless Chromium: `reasonix serve --permission-mode plan`, a prompt, the
 * plan card revised with typed feedback, then approved; the write runs and the mode picker follows.
 * Each answered plan leaves a settled line (revision, outcome, summary, feedback), and a reload shows the
 * same lines with no card left. Needs /usr/bin/chromium (`.ci/run` installs it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import {
  assertReloadShowsSame,
  browserTest,
  prompt,
  settledLines,
  withServePage,
} from "../support/serve_browser.ts";

function submit(summary: string): ScriptedReply {
  const args = { summary, steps: [{ content: "Write x.txt" }] };
  const call = { action: "call", capability_id: "tool:submit_plan", arguments: args };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

const SCRIPT: ScriptedReply[] = [
  submit("First <b>plan</b>"),
  submit("Second plan"),
  { toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi\\n"}` }] },
  { content: "Done writing." },
];

browserTest(
  "serve web UI: the plan card revises with feedback, then approves; the write runs under the earlier mode",
  async () => {
    const options = { sim: { script: SCRIPT }, serveArgs: ["--permission-mode", "plan"] };
    await withServePage(options, async ({ page, sim, ws }) => {
      await prompt(page, "write x.txt");
      const first = page.locator(".card", { hasText: "Plan · revision 1" });
      await first.waitFor();
      assert.match(await first.innerText(), /First <b>plan<\/b>/, "the plan is text, never markup");
      await first.locator("input").fill("keep it short");
      await first.getByRole("button", { name: "Revise" }).click();
      const second = page.locator(".card", { hasText: "Plan · revision 2" });
      await second.waitFor();
      await second.getByRole("button", { name: "Approve" }).click();
      // Plan mode replaced ask mode: after the approval the write asks again.
      const allow = page.locator(".card", { hasText: "Allow write_file?" });
      await allow.waitFor();
      await allow.getByRole("button", { name: "Allow once" }).click();
      await page.locator(".answer", { hasText: "Done writing." }).waitFor();
      assert.equal(await Deno.readTextFile(join(ws, "x.txt")), "hi\n");
      assert.equal(await page.locator("#mode").inputValue(), "ask");
      const tools = sim.requests[1]!.json.messages.filter((m: { role: string }) => m.role === "tool");
      assert.match(tools.at(-1).content, /said: "keep it short"/);
      const live = await settledLines(page, "plan");
      assert.deepEqual(live, [
        "plan revision 1: revise — First <b>plan</b> (keep it short)",
        "plan revision 2: approved · mode ask — Second plan",
      ]);
      assert.equal(await page.locator("#log b").count(), 0, "the settled line is text, never markup");
      assert.equal(await page.locator("#log .card").count(), 0, "no card is left to answer");
      await assertReloadShowsSame(page, {
        answer: "Done writing.",
        kind: "plan",
        live,
        shot: "plan-reloaded",
      });
    });
  },
);
