import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import {
  ApprovalCard,
  approvalKey,
  cardRows,
  scrollDiff,
} from "../../../src/frontends/tui/approval_card.tsx";
import { ThemeContext } from "../../../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../../../src/frontends/tui/theme.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";
import type { ApprovalRequest } from "../../../src/control/events.ts";
import { NO_KEY } from "./_keys.ts";

const CONTENT = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

const REQUEST: ApprovalRequest = {
  id: "a1",
  callId: "c1",
  tool: "write_file",
  arguments: JSON.stringify({ path: "big.txt", content: CONTENT }),
  subject: "big.txt",
  preview: { path: "big.txt", kind: "create", oldText: null, newText: CONTENT },
  explanation: { decision: "ask", tier: "write", rule: null, reason: "Writes ask in ask mode" },
  suggestedRule: null,
  mode: "ask",
};

function frame(maxRows: number | undefined, scroll = 0): string[] {
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", false)}>
      <ApprovalCard
        request={REQUEST}
        width={70}
        selected={0}
        scroll={scroll}
        {...maxRows ? { maxRows } : {}}
      />
    </ThemeContext.Provider>,
  );
  const text = stripVTControlCharacters(view.lastFrame() ?? "");
  view.unmount();
  view.cleanup();
  return text.split("\n");
}

Deno.test("ApprovalCard fits maxRows: title and choices stay, the diff is cut with marks and a scroll hint", () => {
  setLanguage("en");
  for (const maxRows of [10, 14, 25]) {
    const lines = frame(maxRows, 3);
    const text = lines.join("\n");
    assert.ok(lines.length <= maxRows, `${lines.length} > ${maxRows}:\n${text}`);
    assert.match(text, /Allow write_file\?/);
    assert.match(text, /4 Deny/);
    assert.match(text, /… 3 diff lines above/);
    assert.match(text, /more diff lines/);
    assert.match(text, /scroll the diff/);
  }
});

Deno.test("ApprovalCard on a tall terminal shows 20 diff lines; a short diff shows whole, without a scroll hint", () => {
  setLanguage("en");
  const tall = frame(undefined).join("\n");
  assert.match(tall, /19 \+ line 19[^\n]*\n[^\n]*… 21 more diff lines/);
  assert.ok(!tall.includes("20 + line 20"), tall);
  const short = { ...REQUEST, preview: { ...REQUEST.preview!, newText: "one\ntwo\n" } };
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", false)}>
      <ApprovalCard request={short} width={70} selected={0} maxRows={14} />
    </ThemeContext.Provider>,
  );
  const text = stripVTControlCharacters(view.lastFrame() ?? "");
  view.unmount();
  view.cleanup();
  assert.match(text, /2 \+ two/);
  assert.ok(!/scroll the diff|more diff lines/.test(text), text);
});

Deno.test("scrollDiff() stays between the first line and the last full window; cardRows() leaves the frame's other rows", () => {
  assert.equal(scrollDiff(REQUEST, -4, 12, 70), 0);
  const last = scrollDiff(REQUEST, 1000, 12, 70);
  assert.ok(last > 30 && last < 41, String(last));
  assert.equal(scrollDiff(REQUEST, 1000, 12, 70), scrollDiff(REQUEST, last, 12, 70));
  assert.equal(cardRows(14, 1, true), 10);
});

Deno.test("approvalKey() scrolls the diff with ↑/↓ by one line and PgUp/PgDn by five", () => {
  assert.deepEqual(approvalKey("", { ...NO_KEY, downArrow: true }, 0), { scroll: 1 });
  assert.deepEqual(approvalKey("", { ...NO_KEY, upArrow: true }, 0), { scroll: -1 });
  assert.deepEqual(approvalKey("", { ...NO_KEY, pageDown: true }, 0), { scroll: 5 });
  assert.deepEqual(approvalKey("", { ...NO_KEY, pageUp: true }, 0), { scroll: -5 });
});
