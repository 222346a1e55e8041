import assert from "node:assert/strict";
import { promptArguments } from "../../src/control/mcp_prompts.ts";
import { bounded, promptText } from "../../src/control/mcp_content.ts";

const WEATHER = {
  name: "weather",
  arguments: [{ name: "city", required: true }, { name: "state" }],
};

Deno.test("promptArguments() maps words in declared order; the last argument takes the rest", () => {
  assert.deepEqual(promptArguments(WEATHER, "Paris"), { city: "Paris" });
  assert.deepEqual(promptArguments(WEATHER, "Paris Île de France"), {
    city: "Paris",
    state: "Île de France",
  });
  assert.deepEqual(promptArguments(WEATHER, `"New York" NY`), { city: "New York", state: "NY" });
  assert.deepEqual(promptArguments(WEATHER, `state='New York' city=Albany`), {
    city: "Albany",
    state: "New York",
  });
  assert.deepEqual(promptArguments(WEATHER, `state=NY Albany`), { city: "Albany", state: "NY" });
  assert.deepEqual(
    promptArguments(WEATHER, `note=x`),
    { city: "note=x" },
    "an undeclared key is a plain word",
  );
});

Deno.test("promptArguments() names a missing required argument and refuses extra words", () => {
  assert.equal(promptArguments(WEATHER, ""), "Missing required argument <city>");
  assert.equal(promptArguments(WEATHER, "state=NY"), "Missing required argument <city>");
  assert.match(
    promptArguments({ name: "plain" }, "extra words") as string,
    /takes no more arguments: extra words/,
  );
  assert.deepEqual(promptArguments({ name: "plain" }, ""), {});
});

Deno.test("promptText() joins messages, marks the assistant's, inlines text resources and names binary ones", () => {
  const text = promptText({
    messages: [
      { role: "user", content: { type: "text", text: "Look:" } },
      { role: "user", content: { type: "resource", resource: { uri: "a://x", text: "body" } } },
      {
        role: "user",
        content: { type: "resource", resource: { uri: "a://b", mimeType: "image/png", blob: "AAAA" } },
      },
      { role: "assistant", content: { type: "image", mimeType: "image/png" } },
    ],
  });
  assert.equal(
    text,
    'Look:\n\n<mcp-resource uri="a://x">\nbody\n</mcp-resource>\n\n' +
      '<mcp-resource uri="a://b">\n[not attached: binary content (image/png), about 3 bytes]\n</mcp-resource>\n\n' +
      "[assistant]\n[image content, not inlined: image/png]",
  );
  assert.equal(bounded("字字字", 7), "字字\n[truncated: the first 6 of 9 bytes are shown]");
});
