import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { ConfigError } from "../../src/config/errors.ts";
import { getConfigValue } from "../../src/config/edit.ts";
import { fixture } from "./_fixture.ts";

Deno.test("loadConfig() defaults language, [ui] and reasoning_language when no file sets them", async () => {
  await using fx = await fixture();
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(config.language, "auto");
  assert.deepEqual(config.ui, { theme: "auto", showTurnUsage: true, showReasoning: true });
  assert.equal(config.agent.reasoningLanguage, undefined);
});

Deno.test("loadConfig() reads language, [ui] and [agent] reasoning_language; the project file wins key by key", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    `language = "zh-TW"\n[agent]\nreasoning_language = "zh"\n[ui]\ntheme = "light"\nshow_reasoning = false\n`,
  );
  await fx.write(join(fx.workspace, "reasonix.toml"), `language = "zh-CN"\n[ui]\nshow_turn_usage = false\n`);
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(config.language, "zh-CN");
  assert.equal(config.agent.reasoningLanguage, "zh");
  assert.deepEqual(config.ui, { theme: "light", showTurnUsage: false, showReasoning: false });
  assert.deepEqual(config.warnings, []);
  assert.equal(getConfigValue(config, "ui.show_turn_usage"), false);
  assert.equal(getConfigValue(config, "agent.reasoning_language"), "zh");
  assert.equal(getConfigValue(config, "language"), "zh-CN");
});

Deno.test("loadConfig() rejects malformed language and [ui] values at file:line:column", async () => {
  const cases: [string, RegExp][] = [
    [
      `language = "fr"\n`,
      /:1:1: Cannot read "language": expected one of "auto", "en", "zh-CN", "zh-TW", or "zh", got "fr"/,
    ],
    [`[ui]\n\ntheme = "blue"\n`, /:3:1: Cannot read "ui.theme": expected one of "auto", "dark", "light"/],
    [
      `[ui]\nshow_turn_usage = "no"\n`,
      /:2:1: Cannot read "ui.show_turn_usage": expected a boolean, got "no"/,
    ],
    [`[agent]\nreasoning_language = "ja"\n`, /:2:1: Cannot read "agent.reasoning_language": expected one of/],
  ];
  for (const [text, pattern] of cases) {
    await using fx = await fixture();
    const file = await fx.write(join(fx.workspace, "reasonix.toml"), text);
    const error = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
    assert.ok(error instanceof ConfigError, String(error));
    assert.ok(error.message.startsWith(file), error.message);
    assert.match(error.message, pattern);
  }
});

Deno.test("loadConfig() notes the [ui] keys it does not implement, without a warning", async () => {
  await using fx = await fixture();
  await fx.write(
    join(fx.workspace, "reasonix.toml"),
    `[ui]\ntheme_style = "rounded"\ncursor_shape = "bar"\nshortcut_layout = "vim"\ntheme = "dark"\n`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.warnings, []);
  assert.deepEqual(config.unused.map((note) => [note.line, note.key]), [
    [2, "ui.theme_style"],
    [3, "ui.cursor_shape"],
    [4, "ui.shortcut_layout"],
  ]);
  assert.equal(config.ui.theme, "dark");
});
