import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import { PlanCard, type PlanFlow, planKey } from "../../../src/frontends/tui/plan_card.tsx";
import { ThemeContext } from "../../../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../../../src/frontends/tui/theme.ts";
import type { ProposedPlan } from "../../../src/control/mod.ts";
import { NO_KEY } from "./_keys.ts";

const FLOW: PlanFlow = { revision: 2, selected: 0, feedback: null };

function frame(plan: ProposedPlan, flow: PlanFlow, rows = 30): string {
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", false)}>
      <PlanCard plan={plan} flow={flow} width={80} rows={rows} />
    </ThemeContext.Provider>,
  );
  const text = stripVTControlCharacters(view.lastFrame() ?? "");
  view.unmount();
  view.cleanup();
  return text;
}

Deno.test("PlanCard shows the revision, summary and steps, with the model's escapes removed", () => {
  const plan = {
    revision: 2,
    summary: "Fix the \x1b[2Jparser",
    steps: [{ content: "Edit parse.ts", detail: "the loop" }, { content: "Run tests" }],
  };
  const text = frame(plan, FLOW);
  assert.match(text, /Plan · revision 2/);
  assert.match(text, /Fix the parser/);
  assert.match(text, /1\. Edit parse\.ts — the loop/);
  assert.match(text, /2\. Run tests/);
  assert.match(text, /1 Approve\s+2 Revise\s+3 Reject/);
  assert.match(frame(plan, { ...FLOW, selected: 1, feedback: "smaller" }), /What should change\? smaller▏/);
});

Deno.test("PlanCard keeps a long plan inside the rows it has", () => {
  const plan = {
    revision: 1,
    summary: "Big",
    steps: Array.from({ length: 40 }, (_, i) => ({ content: `step ${i}` })),
  };
  const text = frame(plan, FLOW, 14);
  assert.match(text, /… 35 more steps/);
  assert.doesNotMatch(text, /step 39/);
});

Deno.test("planKey: digits and Enter decide, arrows move, revise opens a feedback line that needs text", () => {
  assert.deepEqual(planKey(FLOW, "1", NO_KEY), { decision: "approve" });
  assert.deepEqual(planKey(FLOW, "3", NO_KEY), { decision: "reject" });
  assert.deepEqual(planKey(FLOW, "", { ...NO_KEY, return: true }), { decision: "approve" });
  assert.deepEqual(planKey(FLOW, "", { ...NO_KEY, rightArrow: true }), { flow: { ...FLOW, selected: 1 } });
  assert.deepEqual(planKey(FLOW, "", { ...NO_KEY, leftArrow: true }), { flow: { ...FLOW, selected: 2 } });
  const typing = { ...FLOW, selected: 1, feedback: "" };
  assert.deepEqual(planKey(FLOW, "2", NO_KEY), { flow: typing });
  assert.equal(planKey(typing, "", { ...NO_KEY, return: true }), null, "an empty revise is not sent");
  assert.deepEqual(planKey(typing, "x", NO_KEY), { flow: { ...typing, feedback: "x" } });
  assert.deepEqual(planKey({ ...typing, feedback: "x" }, "", { ...NO_KEY, return: true }), {
    decision: "revise",
    feedback: "x",
  });
  assert.deepEqual(planKey(typing, "", { ...NO_KEY, escape: true }), { flow: { ...typing, feedback: null } });
  assert.equal(planKey(FLOW, "", { ...NO_KEY, escape: true }), null, "Esc on the choices is the app's");
});
