/**
 * The web UI in a real browser, set up once for every serve_browser test: the DeepSeek simulator,
 * a home and a workspace, `reasonix serve` started as a person starts it, headless Chromium (driven by
 * playwright-core) logged in with the token URL, and everything stopped and removed afterwards.
 * Needs /usr/bin/chromium (`.ci/run` installs it); screenshots go to test-artifacts/<name>/.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { makeHome, makeWorkspace, removeAll } from "./cli.ts";
import { DeepSeekSim, type SimOptions } from "./deepseek_sim.ts";
import { type Server, startServe } from "./serve_cli.ts";

const CHROMIUM = "/usr/bin/chromium";

export const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

/** test-artifacts/<name>, created. */
export async function artifacts(name: string): Promise<string> {
  const dir = resolve(import.meta.dirname!, "../../test-artifacts", name);
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

export async function launchChromium(): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
}

/** A Deno test that needs Chromium (skipped without it); the browser and server outlive Deno's op sanitizers. */
export function browserTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: !hasChromium, sanitizeResources: false, sanitizeOps: false, fn });
}

export interface ServePage {
  sim: DeepSeekSim;
  home: string;
  ws: string;
  server: Server;
  browser: Browser;
  page: Page;
}

export interface ServePageOptions {
  sim: SimOptions;
  /** The workspace's files. */
  files?: Record<string, string>;
  /** More arguments for `reasonix serve`. */
  serveArgs?: string[];
  /** Changes the home (config.toml, .env) before serve starts. */
  prepareHome?: (home: string, sim: DeepSeekSim) => Promise<void>;
  /** What the logged-in page shows once it is ready; the chat's composer unless told. */
  readySelector?: string;
}

/** Runs `body` with a page logged in to a fresh `reasonix serve`, then stops and removes everything. */
export async function withServePage(
  options: ServePageOptions,
  body: (session: ServePage) => Promise<void>,
): Promise<void> {
  const sim = await DeepSeekSim.start(options.sim);
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace(options.files ?? { "a.txt": "alpha\n" });
  let server: Server | null = null;
  let browser: Browser | null = null;
  try {
    await options.prepareHome?.(home, sim);
    server = await startServe(home, ws, options.serveArgs);
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.waitForSelector(options.readySelector ?? "#composer");
    await body({ sim, home, ws, server, browser, page });
  } finally {
    await browser?.close();
    await server?.stop();
    await sim.close();
    await removeAll(home, ws);
  }
}

export async function prompt(page: Page, text: string): Promise<void> {
  await page.fill("#input", text);
  await page.press("#input", "Enter");
}

/** The lines answered cards left (`.note.settled`), or only those of one kind (approval, question, plan). */
export async function settledLines(page: Page, kind?: string): Promise<string[]> {
  const lines = await page.locator(`#log .note.settled${kind ? `.${kind}` : ""}`).allInnerTexts();
  return lines.map((text) => text.trim());
}

/** Text as the page shows it, whatever its line breaks and spacing. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Reloads the page and checks it shows what it showed live: once `answer` is back, the same settled lines of
 * `kind`, no card left to answer and the same transcript text. The reloaded page is saved as `<shot>.png`.
 */
export async function assertReloadShowsSame(
  page: Page,
  options: { answer: string; kind: string; live: readonly string[]; shot: string },
): Promise<void> {
  const before = await page.locator("#log").innerText();
  await page.reload();
  await page.locator(".answer", { hasText: options.answer }).waitFor();
  await page.screenshot({ path: join(await artifacts("serve-browser"), `${options.shot}.png`) });
  assert.deepEqual(
    await settledLines(page, options.kind),
    options.live,
    `the reload shows the ${options.kind} lines`,
  );
  assert.equal(await page.locator("#log .card").count(), 0, "no card after the reload");
  assert.equal(normalise(await page.locator("#log").innerText()), normalise(before));
}
