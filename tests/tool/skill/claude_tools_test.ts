import assert from "node:assert/strict";
import { ourToolName, splitToolList } from "../../../src/tool/skill/claude_tools.ts";
import { parseSkillFile } from "../../../src/tool/skill/frontmatter.ts";

Deno.test("splitToolList() keeps a Bash(…) pattern with spaces as one item", () => {
  assert.deepEqual(splitToolList("Read, Grep Bash(git diff:*),Glob"), [
    "Read",
    "Grep",
    "Bash(git diff:*)",
    "Glob",
  ]);
});

Deno.test("ourToolName() maps Claude Code's names and drops a pattern; our names pass through", () => {
  assert.deepEqual(
    ["Read", "Edit", "Bash(git log:*)", "WebFetch", "grep", "mcp__git__status"].map(ourToolName),
    ["read_file", "edit_file", "bash", "web_fetch", "grep", "mcp__git__status"],
  );
});

Deno.test("a .claude skill's allowed-tools reach the child in our names, deduplicated", () => {
  const text = "---\nname: lint\ndescription: Lint\nrunAs: subagent\n" +
    "allowed-tools: Read, Grep, Bash(deno lint:*), Bash(deno fmt:*)\n---\nRun the linters.\n";
  const skill = parseSkillFile(text, { path: "/x/lint/SKILL.md", fallbackName: "lint", source: "project" });
  assert.deepEqual(skill.allowedTools, ["read_file", "grep", "bash"]);
});
