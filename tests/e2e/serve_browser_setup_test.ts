/**
 * The web UI in headless Chromium (playwright-core), against `reasonix serve` as a person starts it:
 * with no provider key the page opens on provider setup; a key saved there (for a provider whose base
 * URL is the DeepSeek simulator) is tested, stored, and used by the next session without a restart,
 * whose answer renders as Markdown with a highlighted code block. Then a hostile answer (script tags,
 * event handlers, javascript: links) renders without running anything. Screenshots go to
 * test-artifacts/serve-browser-setup/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { artifacts, browserTest, prompt, withServePage } from "../support/serve_browser.ts";

const KEY = "sk-browser-setup-0123456789wxyz";

const ANSWER = [
  "## Done",
  "",
  "Here is the *function* you asked for:",
  "",
  "```ts",
  "// adds two numbers",
  "export function add(a: number, b: number): number {",
  '  const label = "sum";',
  "  return a + b;",
  "}",
  "```",
  "",
  "| name | kind |",
  "| --- | --- |",
  "| add | function |",
].join("\n");

const HOSTILE = [
  "# Hostile",
  "",
  "<script>window.pwned = 'script'; alert('script')</script>",
  "",
  "<img src=x onerror=\"window.pwned = 'img'\">",
  "",
  "[click me](javascript:window.pwned='md-link')",
  "",
  '<a href="javascript:window.pwned=\'raw-link\'" id="raw">raw link</a>',
  "",
  '<svg onload="window.pwned=\'svg\'"><circle r="5"/></svg>',
  "",
  "<iframe src=\"javascript:window.pwned='iframe'\"></iframe>",
  "",
  "![pixel](http://127.0.0.1:9/pixel.png)",
  "",
  "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) and [safe](https://example.com/ok)",
  "",
  '<p onclick="window.pwned=\'p\'" style="position:fixed;inset:0">covering paragraph</p>',
  "",
  "```html",
  "</code></pre><img src=x onerror=\"window.pwned='fence'\">",
  "```",
].join("\n");

/** The built-in DeepSeek provider is the default and has no key; `sim` is the simulator. */
function setupToml(simUrl: string): string {
  return [
    `default_model = "deepseek-flash"`,
    `[network]`,
    `max_retries = 0`,
    `[[providers]]`,
    `name = "sim"`,
    `kind = "openai"`,
    `base_url = "${simUrl}"`,
    `model = "deepseek-flash"`,
    `api_key_env = "SIM_API_KEY"`,
    `reasoning_protocol = "deepseek"`,
    ``,
  ].join("\n");
}

browserTest(
  "serve web UI: provider setup stores a key the next session uses; the answer is Markdown, highlighted",
  async () => {
    const script: ScriptedReply[] = [{ content: "ok" }, { content: ANSWER, chunkSize: 6 }];
    const prepareHome = async (home: string, sim: DeepSeekSim) => {
      await Deno.writeTextFile(join(home, "config.toml"), setupToml(sim.url));
      await Deno.writeTextFile(join(home, ".env"), "");
    };
    const options = { sim: { script, apiKey: KEY }, prepareHome, readySelector: "#setup-form" };
    await withServePage(options, async ({ sim, home, server, page }) => {
      const shots = await artifacts("serve-browser-setup");
      assert.match(server.output.join(""), /No provider key is set/);
      assert.match(await page.locator("#setup-why").innerText(), /No key is set for the default model/);
      await page.selectOption("#setup-provider", "sim");
      await page.fill("#setup-key", KEY);
      await page.screenshot({ path: join(shots, "1-setup.png") });
      await page.click("#setup-save");
      const result = page.locator("#setup-result", { hasText: "Saved:" });
      await result.waitFor();
      const said = await result.innerText();
      assert.ok(!said.includes(KEY), "the page never shows the key back");
      assert.match(said, /SIM_API_KEY stored \(••••wxyz\).*New sessions use sim \(tested\)/);
      assert.equal(await page.inputValue("#setup-key"), "", "the key field is cleared");
      assert.equal(await Deno.readTextFile(join(home, ".env")), `SIM_API_KEY=${KEY}\n`);
      await page.screenshot({ path: join(shots, "2-saved.png") });
      await page.click("#setup-close");

      await prompt(page, "write an add function");
      const code = page.locator(".answer pre code.hljs");
      await code.waitFor();
      await page.locator(".answer td", { hasText: "function" }).waitFor();
      const answer = page.locator(".answer");
      assert.equal(await answer.locator("h2").textContent(), "Done");
      assert.equal(await answer.locator("em").textContent(), "function");
      assert.equal(await code.locator(".hljs-comment").first().textContent(), "// adds two numbers");
      assert.ok(await code.locator(".hljs-keyword").count() >= 2, "keywords highlighted");
      assert.equal(await code.locator(".hljs-string").textContent(), '"sum"');
      assert.equal(
        sim.requests[1]!.headers["authorization"],
        `Bearer ${KEY}`,
        "the new session used the key",
      );
      assert.equal(sim.requests[1]!.json.model, "deepseek-flash");
      await page.screenshot({ path: join(shots, "3-answer.png") });
    });
  },
);

browserTest("serve web UI: a hostile answer (script, onerror, javascript: links) renders inert", async () => {
  await withServePage(
    { sim: { script: [{ content: HOSTILE, chunkSize: 16 }] } },
    async ({ server, page }) => {
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await prompt(page, "show me something");
      const answer = page.locator(".answer");
      await answer.locator("pre code.hljs").waitFor();
      await answer.locator("a", { hasText: "safe" }).waitFor();
      // Click everything that looks clickable: nothing may run.
      for (const link of await answer.locator("a").all()) await link.click({ noWaitAfter: true });
      await answer.getByText("covering paragraph").click();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(await artifacts("serve-browser-setup"), "4-hostile.png") });

      assert.equal(await page.evaluate(() => (globalThis as { pwned?: string }).pwned ?? null), null);
      assert.deepEqual(dialogs, []);
      const forbidden =
        "script, img, svg, iframe, object, embed, style, [style], [onerror], [onload], [onclick]";
      assert.equal(await answer.locator(forbidden).count(), 0, "no active markup reached the page");
      const hrefs = await answer.locator("a[href]").evaluateAll((links) =>
        // Typed loosely: with every test checked together, the DOM types differ from this file alone.
        links.map((a) => (a as { getAttribute(name: string): string | null }).getAttribute("href"))
      );
      assert.deepEqual(hrefs, ["https://example.com/ok"], "only the http(s) link keeps its address");
      const safe = answer.locator("a", { hasText: "safe" });
      assert.equal(await safe.getAttribute("target"), "_blank");
      assert.match((await safe.getAttribute("rel"))!, /noopener/);
      const text = await answer.innerText();
      assert.ok(text.includes("<script>window.pwned = 'script'"), "raw HTML shows as text");
      assert.ok(text.includes("![pixel]") || text.includes("[pixel]"), "an image shows as its text");
      assert.match(await answer.locator("pre code").innerText(), /<\/code><\/pre><img src=x/);
      assert.equal(page.url().startsWith(server.url), true, "the page did not navigate away");
    },
  );
});
