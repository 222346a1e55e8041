import assert from "node:assert/strict";
import { defaultCommands } from "../../../src/control/commands/builtin.ts";
import { applyItem, completionAt, enterCompletes } from "../../../src/frontends/tui/input/completion.ts";
import { applyCompletion, completionTokenAt } from "../../../src/frontends/tui/input/mention.ts";

const commands = defaultCommands();
const files = [
  "src/",
  "src/frontends/",
  "README.md",
  "src/app.ts",
  "src/frontends/tui/app.tsx",
  "docs/api.md",
];

Deno.test("completionAt() lists registry commands matching /pe with their usage and summary", () => {
  const completion = completionAt("/pe", 3, { commands })!;
  assert.equal(completion.kind, "command");
  const first = completion.items[0]!;
  const permissions = commands.find("permissions")!;
  assert.deepEqual(first, { value: "permissions", label: permissions.usage, detail: permissions.summary });
  const next = applyItem("/pe", 3, completion, 0);
  assert.deepEqual(next, { text: "/permissions ", cursor: 13 });
});

Deno.test("completionAt() lists every command for a bare slash and names an alias it matched", () => {
  const all = completionAt("/", 1, { commands })!;
  assert.equal(all.items.length, commands.list().length);
  const exit = completionAt("/exi", 4, { commands })!;
  assert.equal(exit.items[0]!.value, "exit");
  assert.match(exit.items[0]!.label, /^\/exit → \/quit/);
  assert.equal(completionAt("/zzzz", 5, { commands }), null);
});

Deno.test("completionAt() offers a command's argument choices after the space", () => {
  const completion = completionAt("/permissions ", 13, { commands })!;
  assert.equal(completion.kind, "argument");
  assert.deepEqual(completion.items.map((item) => item.value), ["ask", "auto", "yolo", "plan"]);
  const partial = completionAt("/permissions yo", 15, { commands })!;
  assert.deepEqual(partial.items.map((item) => item.value), ["yolo"]);
  assert.deepEqual(applyItem("/permissions yo", 15, partial, 0), { text: "/permissions yolo ", cursor: 18 });
  assert.equal(completionAt("/help ", 6, { commands }), null, "no choices, no menu");
});

Deno.test("completionAt() ranks workspace paths for @ anywhere in the text", () => {
  const completion = completionAt("fix @src/ap now", 11, { files })!;
  assert.equal(completion.kind, "mention");
  assert.equal(completion.items[0]!.value, "src/app.ts");
  assert.deepEqual(applyItem("fix @src/ap now", 11, completion, 0), {
    text: "fix @src/app.ts  now",
    cursor: 16,
  });
  assert.equal(completionAt("mail a@src", 10, { files }), null);
  const spaced = completionAt("@to", 3, { files: ["my notes/to do.md"] })!;
  assert.deepEqual(applyItem("@to", 3, spaced, 0), { text: "@my\\ notes/to\\ do.md ", cursor: 21 });
});

Deno.test("a directory completes without a trailing space, so the path goes on", () => {
  const completion = completionAt("@src/fro", 8, { files })!;
  assert.equal(completion.items[0]!.value, "src/frontends/");
  assert.deepEqual(applyItem("@src/fro", 8, completion, 0), { text: "@src/frontends/", cursor: 15 });
  const token = completionTokenAt("@d", 2)!;
  assert.deepEqual(applyCompletion("@d", 2, token, "docs/"), { text: "@docs/", cursor: 6 });
});

Deno.test("enterCompletes() only when something was typed and the selection differs from it", () => {
  const typed = completionAt("/pe", 3, { commands })!;
  assert.equal(enterCompletes(typed, 0), true);
  const exact = completionAt("/help", 5, { commands })!;
  assert.equal(exact.items[0]!.value, "help");
  assert.equal(enterCompletes(exact, 0), false, "Enter runs /help");
  const empty = completionAt("/permissions ", 13, { commands })!;
  assert.equal(enterCompletes(empty, 0), false, "Enter runs /permissions with no argument");
});

Deno.test("completion keys change with the query, so a selection does not leak to the next token", () => {
  assert.notEqual(completionAt("/p", 2, { commands })!.key, completionAt("/pe", 3, { commands })!.key);
});
