import assert from "node:assert/strict";
import { columnsOf, frameLines } from "../../../src/frontends/tui/boot_frame.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";

Deno.test("frameLines() draws the input box across the terminal, the placeholder cut to fit, in every locale", () => {
  for (const language of ["en", "zh-CN", "zh-TW"] as const) {
    setLanguage(language);
    for (const columns of [100, 80, 40, 20]) {
      const lines = frameLines(columns, false);
      assert.equal(lines.length, 4);
      for (const line of lines.slice(0, 3)) {
        assert.equal(columnsOf(line), columns, `${language} ${columns}: ${line}`);
      }
      assert.ok(lines[1]!.startsWith("│ › "));
    }
  }
  setLanguage("en");
  assert.match(frameLines(100, false)[1]!, /Type a task/);
  assert.equal(frameLines(100, false)[3], "starting…");
  assert.equal(frameLines(100, true)[0]!.startsWith("\x1b[2m"), true, "dim when colours are on");
});

Deno.test("columnsOf() counts CJK as two columns", () => {
  assert.equal(columnsOf("ab"), 2);
  assert.equal(columnsOf("输入任务"), 8);
  assert.equal(columnsOf("› · …"), 5);
});
