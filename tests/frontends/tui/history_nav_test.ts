import assert from "node:assert/strict";
import { NO_RECALL, recallNewer, recallOlder } from "../../../src/frontends/tui/history_nav.ts";

Deno.test("recallOlder/recallNewer walk the history and give the draft back", () => {
  const entries = ["one", "two", "三"];
  const first = recallOlder(entries, NO_RECALL, "typing")!;
  assert.deepEqual(first, { nav: { index: 2, draft: "typing" }, value: "三" });
  const second = recallOlder(entries, first.nav, first.value)!;
  assert.equal(second.value, "two");
  const third = recallOlder(entries, second.nav, second.value)!;
  assert.equal(third.value, "one");
  assert.equal(recallOlder(entries, third.nav, third.value), null, "nothing older than the oldest");
  const back = recallNewer(entries, third.nav)!;
  assert.equal(back.value, "two");
  const newest = recallNewer(entries, recallNewer(entries, back.nav)!.nav)!;
  assert.deepEqual(newest, { nav: NO_RECALL, value: "typing" });
  assert.equal(recallNewer(entries, NO_RECALL), null, "Down without recalling does nothing");
  assert.equal(recallOlder([], NO_RECALL, "x"), null);
});
