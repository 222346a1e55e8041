/**
 * The web UI in a real browser: headless Chromium (driven by playwright-core) opens the token URL
 * `reasonix serve` printed, sends a prompt, approves an edit, sees the streamed answer, reloads and sees
 * the same transcript. Screenshots go to test-artifacts/serve-browser/. Needs /usr/bin/chromium
 * (`.ci/run` installs it).
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

Deno.test({
  name:
    "serve web UI: log in with the token URL, prompt, approve an edit, stream, reload to the same transcript",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const sim = await DeepSeekSim.start({
      script: [
        {
          reasoning: "edit it",
          toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi\\n"}` }],
        },
        {
          content:
            "I wrote **x.txt** for you.\n\n```sh\ncat x.txt # shows hi\n```\n<img src=x onerror=alert(1)>",
          chunkSize: 4,
          tokensPerSecond: 60,
        },
      ],
    });
    const home = await makeHome({ simUrl: sim.url });
    const ws = await makeWorkspace({ "a.txt": "alpha\n" });
    const server = await startServe(home, ws);
    await Deno.mkdir(ARTIFACTS, { recursive: true });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/?token=${server.token}`);
      assert.equal(new URL(page.url()).search, "", "the token left the address bar");
      await page.waitForSelector("#composer");
      await page.fill("#input", "write x.txt please");
      await page.press("#input", "Enter");
      const card = page.locator(".card", { hasText: "Allow write_file?" });
      await card.waitFor();
      await page.screenshot({ path: join(ARTIFACTS, "1-approval.png") });
      await card.getByRole("button", { name: "Allow once" }).click();
      const answer = page.locator(".answer", { hasText: "<img src=x onerror=alert(1)>" });
      await answer.waitFor();
      assert.equal(await answer.locator("strong").textContent(), "x.txt", "Markdown rendered");
      assert.equal(await answer.locator("pre .hljs-comment").textContent(), "# shows hi", "code highlighted");
      assert.equal(await answer.locator("img").count(), 0, "model output is never markup");
      assert.equal(await Deno.readTextFile(join(ws, "x.txt")), "hi\n");
      await page.screenshot({ path: join(ARTIFACTS, "2-answer.png") });
      const before = await page.locator("#log").innerText();

      await page.reload();
      await page.locator(".answer", { hasText: "<img src=x onerror=alert(1)>" }).waitFor();
      await page.locator(".turn", { hasText: "write x.txt please" }).waitFor();
      await page.screenshot({ path: join(ARTIFACTS, "3-reloaded.png") });
      const after = await page.locator("#log").innerText();
      assert.equal(normalise(after), normalise(before));
    } finally {
      await browser.close();
      await server.stop();
      await sim.close();
      await removeAll(home, ws);
    }
  },
});

/** The live page keeps the answered approval card's buttons; the reload shows the same text. */
function normalise(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
