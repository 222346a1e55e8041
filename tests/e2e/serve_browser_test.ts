/**
 * The web UI in a real browser: headless Chromium (driven by playwright-core) opens the token URL
 * `reasonix serve` printed, sends a prompt, approves an edit, sees the streamed answer, reloads and sees
 * the same transcript. Screenshots go to test-artifacts/serve-browser/. Needs /usr/bin/chromium
 * (`.ci/run` installs it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, browserTest, normalise, prompt, withServePage } from "../support/serve_browser.ts";

const SCRIPT = [
  {
    reasoning: "edit it",
    toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi\\n"}` }],
  },
  {
    content: "I wrote **x.txt** for you.\n\n```sh\ncat x.txt # shows hi\n```\n<img src=x onerror=alert(1)>",
    chunkSize: 4,
    tokensPerSecond: 60,
  },
];

browserTest(
  "serve web UI: log in with the token URL, prompt, approve an edit, stream, reload to the same transcript",
  async () => {
    await withServePage({ sim: { script: SCRIPT } }, async ({ page, ws }) => {
      const shots = await artifacts("serve-browser");
      assert.equal(new URL(page.url()).search, "", "the token left the address bar");
      await prompt(page, "write x.txt please");
      const card = page.locator(".card", { hasText: "Allow write_file?" });
      await card.waitFor();
      await page.screenshot({ path: join(shots, "1-approval.png") });
      await card.getByRole("button", { name: "Allow once" }).click();
      const answer = page.locator(".answer", { hasText: "<img src=x onerror=alert(1)>" });
      await answer.waitFor();
      assert.equal(await answer.locator("strong").textContent(), "x.txt", "Markdown rendered");
      assert.equal(await answer.locator("pre .hljs-comment").textContent(), "# shows hi", "code highlighted");
      assert.equal(await answer.locator("img").count(), 0, "model output is never markup");
      assert.equal(await Deno.readTextFile(join(ws, "x.txt")), "hi\n");
      await page.screenshot({ path: join(shots, "2-answer.png") });
      const before = await page.locator("#log").innerText();

      await page.reload();
      await page.locator(".answer", { hasText: "<img src=x onerror=alert(1)>" }).waitFor();
      await page.locator(".turn", { hasText: "write x.txt please" }).waitFor();
      await page.screenshot({ path: join(shots, "3-reloaded.png") });
      const after = await page.locator("#log").innerText();
      assert.equal(normalise(after), normalise(before));
    });
  },
);
