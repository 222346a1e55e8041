import assert from "node:assert/strict";
import { afterMarkdown, loadedMarkdown, loadMarkdown } from "../../../src/frontends/tui/markdown_loader.ts";

Deno.test("afterMarkdown() holds the first item that needs the renderer, and what follows, until it has loaded", async () => {
  assert.equal(loadedMarkdown(), undefined, "nothing in this file loads the renderer before this test");
  const seen: number[] = [];
  const deliver = afterMarkdown((n: number) => seen.push(n), (n) => n % 2 === 0);
  deliver(1);
  assert.deepEqual(seen, [1], "what needs no renderer goes at once");
  deliver(2);
  deliver(3);
  assert.deepEqual(seen, [1], "3 waits behind 2, which needs the renderer");
  const deadline = Date.now() + 30_000;
  while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(seen, [1, 2, 3]);
  assert.ok(loadedMarkdown()?.StreamingMarkdown, "the renderer has loaded");
  deliver(4);
  assert.deepEqual(seen, [1, 2, 3, 4], "once loaded, delivered at once");
  assert.equal(await loadMarkdown(), loadedMarkdown(), "loaded once");
});
