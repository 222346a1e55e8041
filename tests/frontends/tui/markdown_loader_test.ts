import assert from "node:assert/strict";
import { afterMarkdown, loadedMarkdown, loadMarkdown } from "../../../src/frontends/tui/markdown_loader.ts";

Deno.test("afterMarkdown() holds what comes before the renderer has loaded, then delivers it in order", async () => {
  assert.equal(loadedMarkdown(), undefined, "nothing in this file loads the renderer before this test");
  const seen: number[] = [];
  const deliver = afterMarkdown((n: number) => seen.push(n));
  deliver(1);
  deliver(2);
  assert.deepEqual(seen, []);
  const deadline = Date.now() + 30_000;
  while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(seen, [1, 2]);
  assert.ok(loadedMarkdown()?.StreamingMarkdown, "the renderer has loaded");
  deliver(3);
  assert.deepEqual(seen, [1, 2, 3], "once loaded, delivered at once");
  assert.equal(await loadMarkdown(), loadedMarkdown(), "loaded once");
});
