import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import type { Key } from "ink";
import { ChoiceCard, choiceKey } from "../../../src/frontends/tui/choice_card.tsx";
import { ThemeContext } from "../../../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../../../src/frontends/tui/theme.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";
import type { ChoiceList } from "../../../src/control/commands/registry.ts";
import { NO_KEY } from "./_keys.ts";

const LIST: ChoiceList = {
  title: "Rewind to before a turn",
  lines: ["Bash side effects are not restored."],
  rows: Array.from({ length: 12 }, (_, index) => ({ label: `turn ${index + 1}`, detail: `file${index}.ts` })),
};

function frame(selected: number, width: number): string {
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", false)}>
      <ChoiceCard list={LIST} selected={selected} width={width} window={4} />
    </ThemeContext.Provider>,
  );
  const text = stripVTControlCharacters(view.lastFrame() ?? "");
  view.unmount();
  view.cleanup();
  return text;
}

function key(overrides: Partial<Key>): Key {
  return { ...NO_KEY, ...overrides };
}

Deno.test("choiceKey() moves with the arrows (wrapping), picks with Enter or a digit, cancels with Esc", () => {
  assert.deepEqual(choiceKey("", key({ upArrow: true }), 0, 3), { selected: 2 });
  assert.deepEqual(choiceKey("", key({ downArrow: true }), 2, 3), { selected: 0 });
  assert.deepEqual(choiceKey("", key({ return: true }), 1, 3), { pick: 1 });
  assert.deepEqual(choiceKey("3", key({}), 0, 3), { pick: 2 });
  assert.equal(choiceKey("4", key({}), 0, 3), null);
  assert.deepEqual(choiceKey("", key({ escape: true }), 0, 3), { cancel: true });
});

Deno.test("ChoiceCard shows a window around the highlight and how many rows are left", () => {
  setLanguage("en");
  const text = frame(5, 80);
  assert.match(text, /Bash side effects are not restored\./);
  assert.match(text, /3 turn 3 +file2\.ts/);
  assert.match(text, /›6 turn 6 +file5\.ts/);
  assert.doesNotMatch(text, /turn 2\b/);
  assert.match(text, /… 6 more · ↑\/↓ move/);
});

Deno.test("ChoiceCard on a narrow terminal drops the details and keeps each row on one line", () => {
  setLanguage("en");
  const text = frame(0, 30);
  assert.match(text, /›1 turn 1 +│/);
  assert.doesNotMatch(text, /file0/);
  for (const line of text.split("\n")) assert.ok(line.length <= 30, line);
});
