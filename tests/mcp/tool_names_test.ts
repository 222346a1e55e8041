import assert from "node:assert/strict";
import { mcpToolName, sanitizeName, serverGroup, uniqueToolName } from "../../src/mcp/tool_names.ts";
import { resultText } from "../../src/mcp/tools.ts";

Deno.test("mcpToolName() keeps the provider's charset and 64 characters, the same in every session", () => {
  assert.equal(mcpToolName("github", "list_issues"), "mcp__github__list_issues");
  assert.equal(mcpToolName("my server", "get.file/v2"), "mcp__my_server__get_file_v2");
  assert.equal(serverGroup("my server"), "mcp__my_server");
  assert.equal(sanitizeName("ü-ok_1"), "_-ok_1");
  const long = mcpToolName("server", "x".repeat(100));
  assert.equal(long.length, 64);
  assert.match(long, /^mcp__server__x+_[0-9a-f]{8}$/);
  assert.equal(mcpToolName("server", "x".repeat(100)), long);
  assert.notEqual(mcpToolName("server", "x".repeat(101)), long, "two long names keep apart");
});

Deno.test("uniqueToolName() gives a second tool of the same sanitised name a hashed one", () => {
  const taken = new Set<string>();
  const first = uniqueToolName("s", "a.b", (name) => taken.has(name));
  taken.add(first);
  const second = uniqueToolName("s", "a/b", (name) => taken.has(name));
  assert.equal(first, "mcp__s__a_b");
  assert.match(second, /^mcp__s__a_b_[0-9a-f]{8}$/);
  assert.ok(/^[A-Za-z0-9_-]{1,64}$/.test(second));
});

Deno.test("resultText() maps every kind of content to text the model reads", () => {
  assert.equal(
    resultText({
      content: [
        { type: "text", text: "hello" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inside a" } },
        { type: "resource", resource: { uri: "file:///b.bin", mimeType: "application/x", blob: "AA==" } },
        { type: "resource_link", uri: "file:///c", name: "c" },
      ],
    }),
    [
      "hello",
      "[audio (audio/wav, 3 bytes) not shown]",
      "inside a",
      "[resource file:///b.bin (application/x), binary, not shown]",
      `[resource link file:///c "c"]`,
    ].join("\n"),
  );
  assert.equal(resultText({ content: [], structuredContent: { a: 1 } }), `{"a":1}`);
  assert.equal(resultText({ content: [{ type: "text", text: "t" }], structuredContent: { a: 1 } }), "t");
});
