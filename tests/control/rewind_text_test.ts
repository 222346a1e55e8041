import assert from "node:assert/strict";
import { reportRewind } from "../../src/control/commands/rewind_text.ts";
import { setLanguage } from "../../src/lib/i18n/mod.ts";

function printed(language: "en" | "zh-CN" | "zh-TW"): { lines: string[]; input: string[] } {
  const lines: string[] = [];
  const input: string[] = [];
  setLanguage(language);
  try {
    const ctx = { print: (text: string) => lines.push(text), setInput: (text: string) => input.push(text) };
    const done = { status: "done" as const, files: ["a.txt"], history: [], note: null };
    reportRewind(ctx, { ...done, prompt: "second edit" }, { turn: 2, scope: "both" });
    reportRewind(ctx, { ...done, files: [], prompt: null }, { undo: true });
    reportRewind(ctx, { status: "changed_outside", files: ["a.txt"] }, { turn: 1, scope: "code" });
  } finally {
    setLanguage("en");
  }
  return { lines, input };
}

Deno.test("reportRewind() prints through the message catalog", () => {
  assert.deepEqual(printed("en"), {
    lines: [
      "Rewound to before turn 2: restored a.txt",
      "The conversation is back before: second edit",
      "Undid the last restore: no files to restore",
      "These files changed outside Reasonix since the checkpoint: a.txt\n" +
      "Nothing was restored; to overwrite them run /rewind 1 code --yes",
    ],
    input: ["second edit"],
  });
  assert.deepEqual(printed("zh-CN").lines, [
    "已回退到第 2 轮之前：已恢复 a.txt",
    "对话已回到这一轮之前：second edit",
    "已撤销上一次恢复：没有要恢复的文件",
    "这些文件在检查点之后被 Reasonix 之外修改过：a.txt\n没有恢复任何内容；要覆盖它们，运行 /rewind 1 code --yes",
  ]);
  assert.equal(printed("zh-TW").lines[0], "已回退到第 2 輪之前：已還原 a.txt");
});
