/**
 * Answered approvals in the web UI: once answered, a card leaves a line saying how ("allowed: write_file
 * a.txt", "denied: write_file b.txt"), and a reload (the session rendered from its log by the Controller's
 * snapshot) shows the same lines where the live page had them, with no card left to answer. Headless
 * Chromium driven by playwright-core; screenshots go to test-artifacts/serve-browser/.
 */
import assert from "node:assert/strict";
import {
  assertReloadShowsSame,
  browserTest,
  prompt,
  settledLines,
  withServePage,
} from "../support/serve_browser.ts";

const write = (path: string) => ({
  toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path, content: "hi\n" }) }],
});

browserTest("serve web UI: answered approvals stay as settled lines, live and after a reload", async () => {
  const script = [write("a.txt"), write("b.txt"), { content: "Wrote a.txt; b.txt was refused." }];
  await withServePage({ sim: { script }, files: { "README.md": "# fixture\n" } }, async ({ page }) => {
    await prompt(page, "write two files");
    const first = page.locator(".card", { hasText: "Allow write_file?" }).filter({ hasText: "a.txt" });
    await first.getByRole("button", { name: "Allow once" }).click();
    const second = page.locator(".card", { hasText: "Allow write_file?" }).filter({ hasText: "b.txt" });
    await second.getByRole("button", { name: "Deny" }).click();
    await page.locator(".answer", { hasText: "b.txt was refused" }).waitFor();
    const live = await settledLines(page, "approval");
    assert.deepEqual(live, ["allowed: write_file a.txt", "denied: write_file b.txt"]);
    assert.deepEqual(await page.locator("#log .card").allInnerTexts(), [], "no card is left to answer");
    await assertReloadShowsSame(page, {
      answer: "b.txt was refused",
      kind: "approval",
      live,
      shot: "approvals-reloaded",
    });
  });
});
