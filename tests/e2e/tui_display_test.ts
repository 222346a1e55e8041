import assert from "node:assert/strict";
import { withTui } from "../support/tui.ts";

const DONE = (screen: string) => !screen.includes("working…") && !screen.includes("处理中");

Deno.test("tui display: after a turn the status line shows effort, context %, this turn's and the session's cache hit, cost", async () => {
  await withTui(
    [{ content: "First reply." }, { content: "Second reply." }],
    async ({ pane }) => {
      await pane.type("first");
      await pane.keys("Enter");
      await pane.waitFor(/First reply\./);
      await pane.type("second");
      await pane.keys("Enter");
      await pane.waitFor(/Second reply\./);
      const screen = await pane.waitFor((text) =>
        DONE(text) && /cache \d+% \(session \d+%\) · cost \d[\d.]* \(session \d[\d.]* CNY\)/.test(text)
      );
      assert.match(screen, /[\d,.k]+ in \(\d+% cached\)/, "receipts show by default");
      const status = screen.split("\n").find((line) => line.startsWith("deepseek-flash · ask"))!;
      assert.match(
        status,
        /^deepseek-flash · ask · effort high · ctx \d+% · cache \d+% \(session \d+%\) · cost /,
      );
      const [, turn, session] = /cache (\d+)% \(session (\d+)%\)/.exec(status)!;
      assert.ok(
        Number(turn) > Number(session),
        `the second turn hits the cache more than the session: ${status}`,
      );
    },
    { size: [140, 30], args: ["--effort", "high"] },
  );
});

Deno.test("tui display: a narrow terminal drops status parts instead of wrapping", async () => {
  await withTui([{ content: "ok" }], async ({ pane }) => {
    await pane.type("hi");
    await pane.keys("Enter");
    const screen = await pane.waitFor((text) => DONE(text) && /^deepseek-flash · ask/m.test(text));
    const status = screen.split("\n").find((line) => line.startsWith("deepseek-flash"))!;
    assert.ok(!status.includes("effort"), status);
    assert.ok(status.length <= 50, status);
    assert.ok(
      !screen.split("\n").some((line) => /^\(session|^cost/.test(line)),
      "nothing wrapped onto a new line",
    );
  }, { size: [50, 30], args: ["--effort", "high"] });
});

Deno.test('tui display: language = "zh-CN" in reasonix.toml beats LANG and the UI speaks Simplified Chinese', async () => {
  await withTui([{ content: "好的。" }], async ({ pane }) => {
    await pane.type("你好");
    await pane.keys("Enter");
    const screen = await pane.waitFor((text) => DONE(text) && /缓存 \d+%（会话 \d+%）/.test(text));
    assert.match(screen, /输入 [\d,.k]+（缓存命中 \d+%）· 输出 [\d,.k]+/, screen);
    assert.match(screen, /输入任务 · Enter 发送/);
  }, { files: { "reasonix.toml": `language = "zh-CN"\n` }, ready: /输入任务 · Enter 发送/ });
});

Deno.test("tui display: [ui] show_turn_usage = false hides the per-turn receipt but keeps the status line", async () => {
  await withTui([{ content: "Quiet reply." }], async ({ pane }) => {
    await pane.type("go");
    await pane.keys("Enter");
    const screen = await pane.waitFor((text) => DONE(text) && /Quiet reply\.[\s\S]*cost \d/.test(text));
    assert.ok(!/\d+ in \(\d+% cached\)/.test(screen), screen);
  }, { files: { "reasonix.toml": `[ui]\nshow_turn_usage = false\n` } });
});

Deno.test("tui display: /theme light recolours what follows and /language zh-TW switches the UI", async () => {
  await withTui([], async ({ pane, sim }) => {
    await pane.type("/theme");
    await pane.keys("Enter");
    await pane.waitFor(/Theme: dark \(setting: auto\)/);
    await pane.type("/theme light");
    await pane.keys("Enter");
    await pane.waitFor(/Theme light for this session\. To keep it, set \[ui\] theme = "light"/);
    const coloured = await pane.run("capture-pane", "-p", "-e", "-t", "main");
    const lines = coloured.split("\n");
    const before = lines.find((line) => line.includes("Theme: dark"))!;
    const after = lines.find((line) => line.includes("Theme light for this session"))!;
    assert.ok(before.includes("\x1b[36mℹ"), `the dark theme's accent is cyan: ${JSON.stringify(before)}`);
    assert.ok(after.includes("\x1b[34mℹ"), `the light theme's accent is blue: ${JSON.stringify(after)}`);
    await pane.type("/language zh-TW");
    await pane.keys("Enter");
    await pane.waitFor(/本次工作階段使用語言 zh-TW/);
    await pane.waitFor(/輸入任務 · Enter 送出/);
    assert.equal(sim.requests.length, 0);
  }, { env: { NO_COLOR: "", FORCE_COLOR: "1" } });
});

Deno.test("tui display: Ctrl+O re-prints the folded tool result unfolded below", async () => {
  const lines = Array.from({ length: 12 }, (_, i) => `row-${i + 1}`).join("\n");
  const args = JSON.stringify({ path: "rows.txt" });
  await withTui(
    [{ toolCalls: [{ name: "read_file", arguments: args }] }, { content: "Read the rows." }],
    async ({ pane }) => {
      await pane.type("read rows");
      await pane.keys("Enter");
      const folded = await pane.waitFor((text) => DONE(text) && /Read the rows\./.test(text));
      assert.match(folded, /more lines/);
      assert.ok(!folded.includes("row-12"), folded);
      await pane.keys("C-o");
      const unfolded = await pane.waitFor(/row-12/);
      assert.ok(unfolded.indexOf("row-12") > unfolded.indexOf("Read the rows."), "printed below the answer");
    },
    { files: { "rows.txt": `${lines}\n` } },
  );
});

Deno.test("tui display: the status line counts a running background job and drops it when the job ends", async () => {
  const args = JSON.stringify({
    command: "while [ ! -f stop.flag ]; do sleep 0.2; done",
    run_in_background: true,
  });
  await withTui(
    [{ toolCalls: [{ name: "bash", arguments: args }] }, { content: "Job started." }],
    async ({ pane, workspace }) => {
      await pane.type("start the watcher");
      await pane.keys("Enter");
      await pane.waitFor((text) => DONE(text) && /Job started\.[\s\S]*· bg jobs 1/.test(text));
      await Deno.writeTextFile(`${workspace}/stop.flag`, "");
      await pane.waitFor((text) => /Job started\./.test(text) && !text.includes("bg jobs"));
    },
    { size: [160, 30], args: ["--yolo"] },
  );
});

Deno.test("tui display: /verbose on shows the next tool result unfolded without Ctrl+O", async () => {
  const lines = Array.from({ length: 8 }, (_, i) => `item-${i + 1}`).join("\n");
  await withTui(
    [{ toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path: "items.txt" }) }] }, {
      content: "Done reading.",
    }],
    async ({ pane }) => {
      await pane.type("/verbose on");
      await pane.keys("Enter");
      await pane.waitFor(/Verbose on for this session/);
      await pane.type("read items");
      await pane.keys("Enter");
      const screen = await pane.waitFor((text) => DONE(text) && /Done reading\./.test(text));
      assert.match(screen, /item-8/);
      assert.ok(!screen.includes("more lines"), screen);
    },
    { files: { "items.txt": `${lines}\n` } },
  );
});
