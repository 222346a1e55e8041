import assert from "node:assert/strict";
import { applyCompletion, completionTokenAt } from "../../../src/frontends/tui/input/mention.ts";

Deno.test("a leading slash is a command token until the first space", () => {
  assert.deepEqual(completionTokenAt("/mo", 3), { kind: "command", query: "mo", start: 0 });
  assert.deepEqual(completionTokenAt("/", 1), { kind: "command", query: "", start: 0 });
  assert.equal(completionTokenAt("/model deepseek", 15), undefined);
});

Deno.test("an @ after whitespace or at the start is a mention; an e-mail address is not", () => {
  assert.deepEqual(completionTokenAt("look at @src/ma", 15), { kind: "mention", query: "src/ma", start: 8 });
  assert.deepEqual(completionTokenAt("@", 1), { kind: "mention", query: "", start: 0 });
  assert.equal(completionTokenAt("mail me@example.com", 19), undefined);
  assert.equal(completionTokenAt("see @a.ts done", 14), undefined);
});

Deno.test("the token is the one before the cursor, with wide characters before it", () => {
  const text = "看看 @doc 然后";
  assert.deepEqual(completionTokenAt(text, 7), { kind: "mention", query: "doc", start: 3 });
});

Deno.test("applying a completion replaces the token and keeps the rest of the text", () => {
  const text = "看看 @doc 然后";
  const token = completionTokenAt(text, 7)!;
  assert.deepEqual(applyCompletion(text, 7, token, "docs/使用说明.md"), {
    text: "看看 @docs/使用说明.md  然后",
    cursor: 17,
  });
  const command = completionTokenAt("/mo", 3)!;
  assert.deepEqual(applyCompletion("/mo", 3, command, "model"), { text: "/model ", cursor: 7 });
});
