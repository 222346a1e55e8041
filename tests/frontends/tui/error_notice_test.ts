import assert from "node:assert/strict";
import { errorHeadline, errorNoticeText } from "../../../src/frontends/tui/error_notice.ts";
import { initialState, reduce } from "../../../src/frontends/tui/state.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";

Deno.test("errorHeadline() names each error code family, exact codes before family prefixes", () => {
  setLanguage("en");
  assert.equal(errorHeadline("provider.auth"), "The provider rejected the API key");
  assert.equal(errorHeadline("provider.rate_limited"), "Rate limited by the provider");
  assert.equal(errorHeadline("provider.network"), "Cannot reach the provider");
  assert.equal(errorHeadline("provider.bad_request"), "The provider refused the request");
  assert.equal(errorHeadline("turn.max_steps"), "Stopped at the step limit");
  assert.equal(errorHeadline("config.parse"), "Configuration problem");
  assert.equal(errorHeadline("net"), null, "an unknown code has no headline");
});

Deno.test("errorNoticeText() puts the translated headline above the raw detail and hint", () => {
  try {
    setLanguage("zh-CN");
    const error = {
      code: "provider.auth",
      message: "HTTP 401: invalid key sk-…",
      hint: "Check DEEPSEEK_API_KEY",
    };
    assert.equal(
      errorNoticeText(error, "x"),
      "服务商拒绝了 API 密钥\nHTTP 401: invalid key sk-…\nCheck DEEPSEEK_API_KEY",
    );
    setLanguage("zh-TW");
    assert.equal(
      errorNoticeText({ code: "turn.interrupted", message: "Interrupted by the user" }, "x"),
      "已中斷",
    );
    assert.equal(errorNoticeText({ code: "net", message: "refused" }, "x"), "refused");
    assert.equal(errorNoticeText(undefined, "max steps"), "max steps");
  } finally {
    setLanguage("en");
  }
});

Deno.test("a failed turn becomes an error notice with the headline", () => {
  setLanguage("en");
  const state = reduce(initialState(), {
    type: "turn_done",
    subtype: "error_during_execution",
    result: "failed",
    error: { code: "provider.rate_limited", message: "HTTP 429 after 3 retries" },
  });
  const notice = state.entries.at(-1);
  assert.ok(notice?.kind === "notice" && notice.level === "error");
  assert.equal(notice.text, "Rate limited by the provider\nHTTP 429 after 3 retries");
});
