import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import { ApprovalCard, approvalKey } from "../../../src/frontends/tui/approval_card.tsx";
import { answerApprovalOnLines } from "../../../src/frontends/tui/line_approvals.ts";
import { ThemeContext } from "../../../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../../../src/frontends/tui/theme.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";
import type { ApprovalRequest } from "../../../src/control/events.ts";
import { NO_KEY } from "./_keys.ts";

const REQUEST: ApprovalRequest = {
  id: "a1",
  callId: "c1",
  tool: "edit_file",
  arguments: JSON.stringify({ path: "src/app.ts", old: "one", new: "two" }),
  subject: "src/app.ts",
  preview: {
    path: "src/app.ts",
    kind: "modify",
    oldText: "const x = 'one';\n",
    newText: "const x = 'two';\n",
  },
  explanation: { decision: "ask", tier: "write", rule: null, reason: "Writes ask in ask mode" },
  suggestedRule: "Edit(src/**)",
  mode: "ask",
};

function frame(selected: number): string {
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", false)}>
      <ApprovalCard request={REQUEST} width={70} selected={selected} />
    </ThemeContext.Provider>,
  );
  const text = stripVTControlCharacters(view.lastFrame() ?? "");
  view.unmount();
  view.cleanup();
  return text;
}

Deno.test("approval card shows the tool, subject, diff preview, reason and the four choices", () => {
  setLanguage("en");
  const text = frame(0);
  assert.match(text, /Allow edit_file\?/);
  assert.match(text, /src\/app\.ts/);
  assert.match(text, /const x = 'one';/);
  assert.match(text, /const x = 'two';/);
  assert.match(text, /Writes ask in ask mode/);
  for (const label of ["›1 Allow once", " 2 Allow for this session", " 3 Always allow", " 4 Deny"]) {
    assert.ok(text.includes(label), `${label} missing:\n${text}`);
  }
});

Deno.test("approval card marks the selected choice", () => {
  setLanguage("en");
  const text = frame(3);
  assert.ok(text.includes("›4 Deny") && text.includes(" 1 Allow once"), text);
});

Deno.test("approval card labels follow the language", () => {
  setLanguage("zh-CN");
  try {
    assert.match(frame(0), /允许 edit_file？[\s\S]*›1 允许一次/);
  } finally {
    setLanguage("en");
  }
});

Deno.test("approvalKey: arrows move and wrap, Enter answers the selection, digits answer directly", () => {
  assert.deepEqual(approvalKey("", { ...NO_KEY, rightArrow: true }, 0), { selected: 1 });
  assert.deepEqual(approvalKey("", { ...NO_KEY, leftArrow: true }, 0), { selected: 3 });
  assert.deepEqual(approvalKey("", { ...NO_KEY, tab: true, shift: true }, 0), { selected: 3 });
  assert.deepEqual(approvalKey("", { ...NO_KEY, return: true }, 1), { choice: "allow_session" });
  assert.deepEqual(approvalKey("3", NO_KEY, 0), { choice: "allow_always" });
  assert.deepEqual(approvalKey("4", NO_KEY, 0), { choice: "deny" });
  assert.equal(approvalKey("x", NO_KEY, 0), null);
  assert.equal(approvalKey("5", NO_KEY, 0), null);
});

Deno.test("approval card says when the server marks the tool destructive, in the card and in line mode", async () => {
  setLanguage("en");
  const request: ApprovalRequest = {
    ...REQUEST,
    tool: "mcp__db__drop_table",
    arguments: `{"table":"users"}`,
    subject: null,
    preview: null,
    destructive: true,
  };
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", false)}>
      <ApprovalCard request={request} width={100} selected={0} />
    </ThemeContext.Provider>,
  );
  const text = stripVTControlCharacters(view.lastFrame() ?? "");
  view.unmount();
  view.cleanup();
  assert.match(text, /Allow mcp__db__drop_table\?/);
  assert.match(text, /marks this tool as destructive/);
  assert.doesNotMatch(frame(0), /destructive/, "other cards do not say it");
  let printed = "";
  setLanguage("zh-CN");
  const answer = await answerApprovalOnLines(request, () => Promise.resolve("4"), (out) => printed += out);
  setLanguage("en");
  assert.equal(answer.choice, "deny");
  assert.match(printed, /破坏性/);
});
