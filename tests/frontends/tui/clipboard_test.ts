import assert from "node:assert/strict";
import { osc52 } from "../../../src/frontends/tui/clipboard.ts";
import { copyWithTool } from "../../../src/sandbox/host_clipboard.ts";

Deno.test("osc52() wraps the UTF-8 text in base64 in the set-clipboard sequence", () => {
  assert.equal(osc52("hello 你好"), "\x1b]52;c;aGVsbG8g5L2g5aW9\x07");
});

Deno.test("copyWithTool() uses no tool when there is no display to talk to", async () => {
  assert.deepEqual(await copyWithTool("text", { PATH: "/usr/bin:/bin" }), []);
});
