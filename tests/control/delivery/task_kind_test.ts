import assert from "node:assert/strict";
import { asksForChange, claimsDone } from "../../../src/control/delivery/task_kind.ts";

Deno.test("asksForChange() reads implement/fix/add/change/refactor requests in English and Chinese", () => {
  for (
    const text of [
      "implement the parser",
      "Fix the failing test",
      "add a --json flag",
      "change the default port",
      "refactor session.ts",
      "please rename foo to bar",
      "实现登录功能",
      "修复这个bug",
      "给 a.txt 添加一行",
      "重构 controller",
    ]
  ) assert.ok(asksForChange(text), text);
  for (
    const text of [
      "what does a.txt say?",
      "explain the prefix cache",
      "address of the server",
      "prefix",
      "解释一下这个函数",
    ]
  ) assert.ok(!asksForChange(text), text);
});

Deno.test("claimsDone() is a claim of delivery, not a report of what was not done", () => {
  for (const text of ["Done.", "Fixed the typo.", "Implemented and added tests", "已修复。", "完成了"]) {
    assert.ok(claimsDone(text), text);
  }
  for (
    const text of [
      "I did not change anything: no typo.",
      "Could not fix it: the file is read-only.",
      "Nothing was changed.",
      "a.txt says alpha",
      "没有修改任何内容",
      "无法完成：文件只读",
    ]
  ) assert.ok(!claimsDone(text), text);
});
