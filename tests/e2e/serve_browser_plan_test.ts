/**
 * The web UI's plan card in headless Chromium: `reasonix serve --permission-mode plan`, a prompt, the
 * plan card revised with typed feedback, then approved; the write runs and the mode picker follows.
 * Needs /usr/bin/chromium (`.ci/run` installs it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { startServe } from "../support/serve_cli.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

function submit(summary: string): ScriptedReply {
  const args = { summary, steps: [{ content: "Write x.txt" }] };
  const call = { action: "call", capability_id: "tool:submit_plan", arguments: args };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

Deno.test({
  name:
    "serve web UI: the plan card revises with feedback, then approves; the write runs under the earlier mode",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const sim = await DeepSeekSim.start({
      script: [
        submit("First <b>plan</b>"),
        submit("Second plan"),
        { toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi\\n"}` }] },
        { content: "Done writing." },
      ],
    });
    const home = await makeHome({ simUrl: sim.url });
    const ws = await makeWorkspace({ "a.txt": "alpha\n" });
    const server = await startServe(home, ws, ["--permission-mode", "plan"]);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/?token=${server.token}`);
      await page.waitForSelector("#composer");
      await page.fill("#input", "write x.txt");
      await page.press("#input", "Enter");
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
    } finally {
      await browser.close();
      await server.stop();
      await sim.close();
      await removeAll(home, ws);
    }
  },
});
