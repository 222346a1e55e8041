/**
 * Answered approvals in the web UI: once answered, a card leaves a line saying how ("allowed: write_file
 * a.txt", "denied: write_file b.txt"), and a reload (the session rendered from its log by the Controller's
 * snapshot) shows the same lines where the live page had them, with no card left to answer. Headless
 * Chromium driven by playwright-core; screenshots go to test-artifacts/serve-browser/.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { startServe } from "../support/serve_cli.ts";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = resolve(import.meta.dirname!, "../../test-artifacts/serve-browser");
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

const write = (path: string) => ({
  toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path, content: "hi\n" }) }],
});

Deno.test({
  name: "serve web UI: answered approvals stay as settled lines, live and after a reload",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const sim = await DeepSeekSim.start({
      script: [write("a.txt"), write("b.txt"), { content: "Wrote a.txt; b.txt was refused." }],
    });
    const home = await makeHome({ simUrl: sim.url });
    const ws = await makeWorkspace({ "README.md": "# fixture\n" });
    const server = await startServe(home, ws);
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/?token=${server.token}`);
      await page.waitForSelector("#composer");
      await page.fill("#input", "write two files");
      await page.press("#input", "Enter");
      const first = page.locator(".card", { hasText: "Allow write_file?" }).filter({ hasText: "a.txt" });
      await first.getByRole("button", { name: "Allow once" }).click();
      const second = page.locator(".card", { hasText: "Allow write_file?" }).filter({ hasText: "b.txt" });
      await second.getByRole("button", { name: "Deny" }).click();
      await page.locator(".answer", { hasText: "b.txt was refused" }).waitFor();
      const live = await settledLines(page);
      assert.deepEqual(live, ["allowed: write_file a.txt", "denied: write_file b.txt"]);
      assert.deepEqual(await page.locator("#log .card").allInnerTexts(), [], "no card is left to answer");
      const before = await page.locator("#log").innerText();

      await page.reload();
      await page.locator(".answer", { hasText: "b.txt was refused" }).waitFor();
      await page.screenshot({ path: join(ARTIFACTS, "approvals-reloaded.png") });
      assert.deepEqual(await settledLines(page), live, "the reload shows the answered approvals");
      assert.equal(await page.locator("#log .card").count(), 0);
      assert.equal(normalise(await page.locator("#log").innerText()), normalise(before));
    } finally {
      await browser.close();
      await server.stop();
      await sim.close();
      await removeAll(home, ws);
    }
  },
});

async function settledLines(page: import("playwright-core").Page): Promise<string[]> {
  return (await page.locator(".note.approval").allInnerTexts()).map((text) => text.trim());
}

function normalise(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
