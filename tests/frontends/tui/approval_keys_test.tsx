import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import { ApprovalCard, approvalKey } from "../../../src/frontends/tui/approval_card.tsx";
import { reasonKey } from "../../../src/frontends/tui/approval_keys.ts";
import { ThemeContext } from "../../../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../../../src/frontends/tui/theme.ts";
import type { ApprovalRequest } from "../../../src/control/events.ts";
import { NO_KEY } from "./_keys.ts";

const REQUEST: ApprovalRequest = {
  id: "a1",
  callId: "c1",
  tool: "bash",
  arguments: JSON.stringify({ command: "npm test" }),
  subject: "npm test",
  preview: null,
  explanation: { decision: "ask", tier: "tier1", rule: null, reason: "bash asks in ask mode" },
  suggestedRule: "Bash(npm test)",
  mode: "ask",
};

Deno.test("approvalKey: Tab opens the deny-reason line", () => {
  assert.deepEqual(approvalKey("", { ...NO_KEY, tab: true }, 2), { reason: "" });
});

Deno.test("reasonKey: text and Backspace edit, Enter sends, Esc goes back, controls are dropped", () => {
  assert.deepEqual(reasonKey("no", " way", NO_KEY), { text: "no way" });
  assert.deepEqual(reasonKey("no way", "", { ...NO_KEY, backspace: true }), { text: "no wa" });
  assert.deepEqual(reasonKey("你好", "", { ...NO_KEY, backspace: true }), { text: "你" });
  assert.deepEqual(reasonKey("a", "b\nc\x1b[31m", NO_KEY), { text: "ab c[31m" });
  assert.deepEqual(reasonKey("a", "", { ...NO_KEY, return: true }), { send: true });
  assert.deepEqual(reasonKey("a", "", { ...NO_KEY, escape: true }), { back: true });
  assert.equal(reasonKey("a", "o", { ...NO_KEY, ctrl: true }), null);
  assert.equal(reasonKey("a", "", { ...NO_KEY, upArrow: true }), null);
});

const TYPED = "run lint first \x1b[2J";

Deno.test("approval card with a reason line shows the typed reason instead of the choices", () => {
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", false)}>
      <ApprovalCard request={REQUEST} width={80} selected={0} reason={TYPED} />
    </ThemeContext.Provider>,
  );
  const text = stripVTControlCharacters(view.lastFrame() ?? "");
  view.unmount();
  view.cleanup();
  assert.match(text, /Deny, and tell the model why: run lint first .*▏/);
  assert.match(text, /Enter deny with this reason · Esc back to the choices/);
  assert.doesNotMatch(text, /Allow once/);
  assert.ok(!(view.lastFrame() ?? "").includes("\x1b[2J"), "the typed text cannot clear the screen");
});
