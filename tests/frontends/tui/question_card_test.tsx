import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import type { Key } from "ink";
import { QuestionCard } from "../../../src/frontends/tui/question_card.tsx";
import {
  type FlowStep,
  type QuestionFlow,
  questionKey,
  startFlow,
} from "../../../src/frontends/tui/question_flow.ts";
import { ThemeContext } from "../../../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../../../src/frontends/tui/theme.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";
import type { Question } from "../../../src/control/events.ts";
import { NO_KEY } from "./_keys.ts";

const SINGLE: Question = {
  header: "Database",
  question: "Which database should we use?",
  options: [{ label: "PostgreSQL", description: "a server" }, { label: "SQLite" }, { label: "DuckDB" }],
};
const MULTI: Question = {
  header: "Features",
  question: "Which features?",
  options: [{ label: "Auth" }, { label: "Logs" }],
  multiSelect: true,
};

type Press = string | Partial<Key>;

/** Feeds keys to a flow; returns the flow or the reply it ended with. */
function press(questions: Question[], keys: Press[]): FlowStep {
  let step: FlowStep = { flow: startFlow("q1") };
  for (const k of keys) {
    assert.ok(step && "flow" in step, "the flow ended before all keys were pressed");
    const next: FlowStep = typeof k === "string"
      ? questionKey(step.flow, questions, k, NO_KEY)
      : questionKey(step.flow, questions, "", { ...NO_KEY, ...k });
    if (next) step = next;
  }
  return step;
}

function frame(questions: Question[], flow: QuestionFlow): string {
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", false)}>
      <QuestionCard questions={questions} flow={flow} />
    </ThemeContext.Provider>,
  );
  const text = stripVTControlCharacters(view.lastFrame() ?? "");
  view.unmount();
  view.cleanup();
  return text;
}

const ENTER = { return: true };

Deno.test("question flow: a digit picks a row and Enter confirms it", () => {
  assert.deepEqual(press([SINGLE], ["2", ENTER]), { reply: [{ labels: ["SQLite"] }] });
  assert.deepEqual(press([SINGLE], [{ downArrow: true }, { downArrow: true }, ENTER]), {
    reply: [{ labels: ["DuckDB"] }],
  });
  assert.deepEqual(press([SINGLE], [{ upArrow: true }, { upArrow: true }, ENTER]), {
    reply: [{ labels: ["DuckDB"] }],
  }, "↑ wraps over the Other row");
  assert.deepEqual(press([SINGLE], ["9", ENTER]), { reply: [{ labels: ["PostgreSQL"] }] }, "no such row");
});

Deno.test("question flow: Esc declines, and questions come one after another", () => {
  assert.deepEqual(press([SINGLE, MULTI], [{ escape: true }]), { reply: "declined" });
  const step = press([SINGLE, MULTI], ["3", ENTER]);
  assert.ok(step && "flow" in step);
  assert.equal(step.flow.index, 1);
  assert.deepEqual(step.flow.answers, [{ labels: ["DuckDB"] }]);
  assert.deepEqual(press([SINGLE, MULTI], ["3", ENTER, " ", "2", ENTER]), {
    reply: [{ labels: ["DuckDB"] }, { labels: ["Auth", "Logs"] }],
  });
});

Deno.test("question flow: multiSelect toggles with Space and digits; Enter with nothing toggled takes the row", () => {
  assert.deepEqual(press([MULTI], ["1", "2", "1", ENTER]), { reply: [{ labels: ["Logs"] }] });
  assert.deepEqual(press([MULTI], [{ downArrow: true }, ENTER]), { reply: [{ labels: ["Logs"] }] });
});

Deno.test("question flow: the Other row takes a typed answer; Esc there goes back to the list", () => {
  assert.deepEqual(press([SINGLE], ["4", "用", " ", "tabs", { backspace: true }, ENTER]), {
    reply: [{ labels: [], other: "用 tab" }],
  });
  const back = press([SINGLE], ["4", "x", { escape: true }]);
  assert.ok(back && "flow" in back);
  assert.equal(back.flow.typing, null);
  assert.equal(back.flow.row, 3);
  const blank = press([SINGLE], ["4", ENTER]);
  assert.ok(blank && "flow" in blank && blank.flow.typing === "", "Enter on an empty answer does nothing");
  assert.deepEqual(press([MULTI], [" ", "3", "more", ENTER]), {
    reply: [{ labels: ["Auth"], other: "more" }],
  });
});

Deno.test("question card shows header, question, numbered options with descriptions and the Other row", () => {
  setLanguage("en");
  const text = frame([SINGLE, MULTI], { ...startFlow("q1"), row: 1 });
  assert.match(text, /\? Database \(1\/2\)/);
  assert.match(text, /Which database should we use\?/);
  for (const row of [" 1 PostgreSQL — a server", "›2 SQLite", " 3 DuckDB", " 4 Other…"]) {
    assert.ok(text.includes(row), `${row} missing:\n${text}`);
  }
  assert.match(text, /1–4 choose · Enter confirm · Esc decline/);
});

Deno.test("question card shows checkboxes in multiSelect and the typed answer in Chinese", () => {
  setLanguage("zh-CN");
  try {
    const text = frame([MULTI], { ...startFlow("q1"), picked: [1], row: 2, typing: "再加日志" });
    assert.ok(text.includes(" 1 [ ] Auth") && text.includes(" 2 [x] Logs"), text);
    assert.match(text, /›3 其他…/);
    assert.match(text, /你的回答： 再加日志/);
    assert.match(text, /输入你的回答/);
  } finally {
    setLanguage("en");
  }
});
