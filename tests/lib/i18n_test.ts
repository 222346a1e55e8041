import assert from "node:assert/strict";
import {
  CATALOGS,
  currentLanguage,
  detectLanguage,
  LANGUAGES,
  parseLanguage,
  setLanguage,
  t,
} from "../../src/lib/i18n/mod.ts";

Deno.test("catalogs have identical key sets and no empty message", () => {
  const reference = Object.keys(CATALOGS.en).sort();
  for (const language of LANGUAGES) {
    assert.deepEqual(Object.keys(CATALOGS[language]).sort(), reference, language);
    for (const [key, message] of Object.entries(CATALOGS[language])) assert.notEqual(message.trim(), "", key);
  }
});

Deno.test("catalogs use the same parameters for each key", () => {
  const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const language of LANGUAGES) {
    for (const [key, message] of Object.entries(CATALOGS.en)) {
      assert.deepEqual(params(CATALOGS[language][key as keyof typeof CATALOGS.en]), params(message), key);
    }
  }
});

Deno.test("t() fills parameters in the current language", () => {
  const before = currentLanguage();
  try {
    setLanguage("en");
    assert.equal(t("tool.more_lines", { count: 4 }), "… 4 more lines (ctrl+o to expand)");
    setLanguage("zh-CN");
    assert.equal(t("tool.more_lines", { count: 4 }), "… 还有 4 行（ctrl+o 展开）");
    setLanguage("zh-TW");
    assert.equal(t("diff.deleted"), "刪除");
    assert.equal(t("todo.progress", { done: 1 }), "已完成 1/{total}");
  } finally {
    setLanguage(before);
  }
});

Deno.test("parseLanguage() maps locales and tags", () => {
  assert.equal(parseLanguage("zh_CN.UTF-8"), "zh-CN");
  assert.equal(parseLanguage("zh_SG"), "zh-CN");
  assert.equal(parseLanguage("zh-Hans"), "zh-CN");
  assert.equal(parseLanguage("zh"), "zh-CN");
  assert.equal(parseLanguage("zh_TW.UTF-8"), "zh-TW");
  assert.equal(parseLanguage("zh_HK"), "zh-TW");
  assert.equal(parseLanguage("zh-Hant-TW"), "zh-TW");
  assert.equal(parseLanguage("en_US.UTF-8"), "en");
  assert.equal(parseLanguage("de_DE"), "en");
  assert.equal(parseLanguage("C.UTF-8"), "en");
  assert.equal(parseLanguage("auto"), null);
  assert.equal(parseLanguage(""), null);
  assert.equal(parseLanguage(undefined), null);
});

Deno.test("detectLanguage() prefers the setting, then REASONIX_LANG, then the locale", () => {
  const env = { REASONIX_LANG: "zh_TW", LANG: "zh_CN.UTF-8" };
  assert.equal(detectLanguage(env, "en"), "en");
  assert.equal(detectLanguage(env, "auto"), "zh-TW");
  assert.equal(detectLanguage(env), "zh-TW");
  assert.equal(detectLanguage({ LANG: "zh_CN.UTF-8" }), "zh-CN");
  assert.equal(detectLanguage({ LC_ALL: "zh_HK.UTF-8", LANG: "en_US.UTF-8" }), "zh-TW");
  assert.equal(detectLanguage({ LANG: "fr_FR.UTF-8" }), "en");
  assert.equal(detectLanguage({}), "en");
});
