import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import { InputBox } from "../../../src/frontends/tui/input_box.tsx";
import { defaultCommands } from "../../../src/control/commands/builtin.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";

const KEYS = { tab: "\t", enter: "\r", esc: "\x1b", down: "\x1b[B", up: "\x1b[A", backspace: "\x7f" };

interface Harness {
  write(text: string): Promise<void>;
  until(test: (frame: string) => boolean): Promise<string>;
  submitted: string[];
  menuOpen: { current: boolean };
  close(): void;
}

function mount(files: string[] = [], past: string[] = []): Harness {
  setLanguage("en");
  const submitted: string[] = [];
  const menuOpen = { current: false };
  const list = () => Promise.resolve(files);
  const view = render(
    <InputBox
      onSubmit={(text) => submitted.push(text)}
      active
      commands={defaultCommands()}
      files={list}
      menuOpen={menuOpen}
      width={90}
      history={{ entries: () => past, add: () => Promise.resolve() }}
    />,
  );
  const frame = () => stripVTControlCharacters(view.lastFrame() ?? "");
  const settle = () => new Promise((done) => setTimeout(done, 20));
  return {
    submitted,
    menuOpen,
    async write(text) {
      view.stdin.write(text);
      await settle();
    },
    async until(test) {
      for (let i = 0; i < 200; i++) {
        if (test(frame())) return frame();
        await settle();
      }
      throw new Error(`The frame never matched:\n${frame()}`);
    },
    close() {
      view.unmount();
      view.cleanup();
    },
  };
}

Deno.test("InputBox: /pe opens the command menu; Tab completes; the argument choices follow", async () => {
  const box = mount();
  try {
    await box.write("/pe");
    const menu = await box.until((f) => f.includes("/permissions [ask|auto|yolo|plan]"));
    assert.match(menu, /Show or set the permission mode/);
    assert.equal(box.menuOpen.current, true);
    await box.write(KEYS.tab);
    const args = await box.until((f) => f.includes("› /permissions ") && /›\s+ask/.test(f));
    assert.match(args, /auto/);
    await box.write(KEYS.down);
    await box.until((f) => /› auto/.test(f));
    await box.write(KEYS.enter);
    assert.deepEqual(box.submitted, ["/permissions"], "Enter with nothing typed after the space runs it");
  } finally {
    box.close();
  }
});

Deno.test("InputBox: Enter completes a partly typed command, then runs it", async () => {
  const box = mount();
  try {
    await box.write("/stat");
    await box.until((f) => f.includes("/status"));
    await box.write(KEYS.enter);
    await box.until((f) => f.includes("› /status "));
    assert.deepEqual(box.submitted, []);
    await box.write(KEYS.enter);
    assert.deepEqual(box.submitted, ["/status"]);
  } finally {
    box.close();
  }
});

Deno.test("InputBox: Up/Down move in an open menu; Esc closes it and Up walks the history again", async () => {
  const box = mount([], ["/status", "older task"]);
  try {
    await box.write("/");
    await box.until((f) => /› \/help/.test(f));
    await box.write(KEYS.down);
    await box.until((f) => /› \/quit/.test(f) && f.includes("› /"));
    await box.write(KEYS.up);
    await box.until((f) => /› \/help/.test(f));
    await box.write(KEYS.esc);
    await box.until((f) => !f.includes("/help [command]"));
    assert.equal(box.menuOpen.current, false);
    await box.write(KEYS.up);
    await box.until((f) => f.includes("› older task"));
    await box.write(KEYS.up);
    const recalled = await box.until((f) => f.includes("› /status"));
    assert.doesNotMatch(recalled, /Tab completes/, "a recalled line does not open the menu");
    await box.write("x");
    await box.write(KEYS.backspace);
    await box.until((f) => f.includes("Tab completes"));
  } finally {
    box.close();
  }
});

Deno.test("InputBox: @ completes workspace paths, directories first and without a trailing space", async () => {
  const box = mount(["src/", "src/frontends/", "src/app.ts", "README.md"]);
  try {
    await box.write("see @src/ap");
    await box.until((f) => /› src\/app\.ts/.test(f));
    await box.write(KEYS.tab);
    await box.until((f) => f.includes("see @src/app.ts "));
    await box.write("and @fro");
    await box.until((f) => /› src\/frontends\//.test(f));
    await box.write(KEYS.tab);
    await box.until((f) => f.includes("and @src/frontends/"));
    await box.write(KEYS.enter);
    // The menu now shows just what was typed, so Enter sends.
    assert.deepEqual(box.submitted, ["see @src/app.ts and @src/frontends/"]);
  } finally {
    box.close();
  }
});

Deno.test("InputBox: a large paste shows a placeholder, Backspace removes all of it, submit sends the text", async () => {
  const box = mount();
  const pasted = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n");
  try {
    await box.write("before ");
    await box.write(`\x1b[200~${pasted}\x1b[201~`);
    await box.until((f) => f.includes("before [Pasted text #1 · 12 lines]"));
    await box.write(KEYS.backspace);
    await box.until((f) => !f.includes("Pasted text") && f.includes("› before"));
    await box.write(`\x1b[200~${pasted}\x1b[201~`);
    await box.until((f) => f.includes("[Pasted text #2 · 12 lines]"));
    await box.write(" after");
    await box.write(KEYS.enter);
    assert.deepEqual(box.submitted, [`before ${pasted} after`]);
  } finally {
    box.close();
  }
});

Deno.test("InputBox: a small paste is inserted as typed text", async () => {
  const box = mount();
  try {
    await box.write("\x1b[200~two\nlines\x1b[201~");
    await box.until((f) => f.includes("› two") && f.includes("lines"));
    await box.write(KEYS.enter);
    assert.deepEqual(box.submitted, ["two\nlines"]);
  } finally {
    box.close();
  }
});

Deno.test("InputBox: Ctrl+U clears the draft, so a /quit typed next is the command alone", async () => {
  const box = mount();
  try {
    await box.write("x");
    await box.write("some draft text");
    await box.write("\x15");
    await box.write("/quit");
    await box.write("\x1b");
    await box.write(KEYS.enter);
    assert.deepEqual(box.submitted, ["/quit"]);
  } finally {
    box.close();
  }
});

Deno.test("InputBox: keys typed during start-up arrive cooked; their newline is Enter", async () => {
  const box = mount();
  try {
    await box.write("fix the test\n");
    assert.deepEqual(box.submitted, ["fix the test"]);
    await box.write("a");
    await box.write("\n");
    await box.write("b");
    await box.until((frame) => frame.includes("b"));
    assert.deepEqual(box.submitted, ["fix the test"], "later, Ctrl+J (\\n) is a new line");
  } finally {
    box.close();
  }
});

Deno.test("InputBox: Ctrl+A, Ctrl+K and Alt+Backspace edit the draft", async () => {
  const box = mount();
  try {
    await box.write("x");
    await box.write("\x7f");
    await box.write("hello brave world");
    await box.write("\x1b\x7f");
    await box.write("\x01");
    await box.write("\x1bf");
    await box.write("\x0b");
    await box.write(KEYS.enter);
    assert.deepEqual(box.submitted, ["hello"]);
  } finally {
    box.close();
  }
});
