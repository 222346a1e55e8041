import assert from "node:assert/strict";
import { MAX_LIST_ITEMS, MAX_PAGES, pagesOf } from "../../src/mcp/_pages.ts";

Deno.test("pagesOf() follows cursors to the last page", async () => {
  const pages: Record<string, { items: number[]; next?: string }> = {
    "": { items: [1, 2], next: "b" },
    b: { items: [3], next: "c" },
    c: { items: [4] },
  };
  assert.deepEqual(await pagesOf((cursor) => Promise.resolve(pages[cursor ?? ""]!)), [1, 2, 3, 4]);
});

Deno.test("pagesOf() stops on a repeated cursor, after MAX_PAGES pages and at MAX_LIST_ITEMS items", async () => {
  let calls = 0;
  const same = await pagesOf(() => {
    calls++;
    return Promise.resolve({ items: [calls], next: "again" });
  });
  assert.deepEqual(same, [1, 2], "the second page repeats the cursor it was asked with");
  calls = 0;
  const endless = await pagesOf(() => {
    calls++;
    return Promise.resolve({ items: [calls], next: `page-${calls}` });
  });
  assert.equal(endless.length, MAX_PAGES);
  const huge = await pagesOf((cursor) =>
    Promise.resolve({ items: Array.from({ length: 900 }, () => 0), next: `${cursor ?? ""}x` })
  );
  assert.equal(huge.length, MAX_LIST_ITEMS);
});
