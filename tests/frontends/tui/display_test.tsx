import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import { App } from "../../../src/frontends/tui/app.tsx";
import { bootController } from "../../../src/control/boot.ts";
import { resolvePaths } from "../../../src/config/paths.ts";
import { defaultCommands } from "../../../src/control/commands/builtin.ts";
import { currentLanguage, setLanguage } from "../../../src/lib/i18n/mod.ts";
import { DeepSeekSim } from "../../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../../support/cli.ts";

type View = ReturnType<typeof render>;

async function until(view: View, test: (frame: string) => boolean, what: string): Promise<string> {
  let frame = "";
  for (let i = 0; i < 300; i++) {
    frame = stripVTControlCharacters(view.lastFrame() ?? "");
    if (test(frame)) return frame;
    await new Promise((done) => setTimeout(done, 10));
  }
  throw new Error(`Never rendered ${what}:\n${frame}`);
}

/** Types a command, waits for its echo, sends it and waits for the answer. */
async function command(view: View, text: string, answer: RegExp): Promise<void> {
  view.stdin.write(text);
  await until(view, (frame) => frame.includes(`› ${text}`), text);
  view.stdin.write("\r");
  await until(view, (frame) => !frame.includes(`› ${text}`) && answer.test(frame), String(answer));
}

Deno.test("/theme, /language and /verbose change this session's display through the App's display port", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "reasonix.toml": `[ui]\ntheme = "light"\n` });
  const controller = await bootController({
    cwd: ws,
    headless: false,
    env: {},
    paths: resolvePaths({ REASONIX_HOME: home }),
  });
  setLanguage("en");
  const view = render(<App controller={controller} env={{ LANG: "en_US.UTF-8" }} />);
  try {
    await command(view, "/theme", /Theme: light \(setting: light\)/);
    await command(view, "/theme dark", /Theme dark for this session\. To keep it, set \[ui\] theme = "dark"/);
    await command(view, "/theme", /Theme: dark \(setting: dark\)/);
    await command(view, "/verbose on", /Verbose on for this session/);
    await command(view, "/verbose", /Verbose: on\./);
    await command(
      view,
      "/language zh-TW",
      /本次工作階段使用語言 zh-TW。若要保留，請在 config\.toml 或 reasonix\.toml 中設定 language = "zh-TW"/,
    );
    assert.equal(currentLanguage(), "zh-TW");
    await until(view, (frame) => frame.includes("輸入任務 · Enter 送出"), "the translated placeholder");
    await command(view, "/language auto", /Language en for this session/);
    await command(view, "/language fr", /Usage: \/language \[auto\|en\|zh-CN\|zh-TW\]/);
    assert.equal(sim.requests.length, 0, "display commands never reach the model");
  } finally {
    view.unmount();
    view.cleanup();
    setLanguage("en");
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("display commands say they need the interactive TUI when the face has no display port", async () => {
  setLanguage("en");
  const printed: string[] = [];
  const registry = defaultCommands();
  const ctx = { host: {} as never, print: (text: string) => printed.push(text), quit: () => {} };
  for (const name of ["theme light", "language zh-CN", "verbose on"]) {
    await registry.dispatch(ctx, `/${name}`);
  }
  assert.deepEqual(printed, [
    "/theme is not available here; it works in the interactive TUI",
    "/language is not available here; it works in the interactive TUI",
    "/verbose is not available here; it works in the interactive TUI",
  ]);
  assert.deepEqual(registry.complete("/theme l"), ["/theme light"]);
  assert.deepEqual(registry.complete("/language zh"), ["/language zh-CN", "/language zh-TW"]);
});

Deno.test("/help lists the display commands with their summaries in the current language", () => {
  try {
    setLanguage("zh-CN");
    const help = defaultCommands().helpText();
    assert.match(help, /\/theme \[auto\|dark\|light\]\s+查看或切换配色主题/);
    assert.match(help, /\/verbose \[on\|off\]\s+展开（on）或折叠（off）推理与工具结果/);
  } finally {
    setLanguage("en");
  }
});
