import assert from "node:assert/strict";
import { buildSystemPrompt } from "../../src/prompt/system.ts";
import { buildContextMessage, localDate } from "../../src/prompt/context.ts";

Deno.test("buildSystemPrompt() is byte-identical for the same inputs and holds nothing volatile", () => {
  const instructions = [{ label: "workspace/AGENTS.md", scope: "project" as const, text: "Use tabs.\n" }];
  const a = buildSystemPrompt({ instructions });
  const b = buildSystemPrompt({ instructions: structuredClone(instructions) });
  assert.equal(a, b);
  assert.doesNotMatch(a, /\d{4}-\d{2}-\d{2}/, "no date");
  assert.doesNotMatch(a, /\/tmp|\/home|\/work/, "no absolute paths");
  assert.match(
    a,
    /# Instructions\n\n[^#]*later file takes precedence[^#]*\n\n## workspace\/AGENTS\.md \(project\)\n\nUse tabs\./,
  );
});

Deno.test("buildSystemPrompt() uses a custom prompt when configured", () => {
  assert.equal(buildSystemPrompt({ custom: "Be brief." }), "Be brief.\n");
});

Deno.test("buildContextMessage() carries the session facts", () => {
  const text = buildContextMessage({
    workspace: "/w",
    os: "linux",
    arch: "x86_64",
    shell: "bash",
    date: localDate(new Date(2026, 11, 2, 10)),
    gitBranch: "main",
  });
  assert.match(text, /Workspace: \/w/);
  assert.match(text, /Date at session start: 2026-12-02/);
  assert.match(text, /Git branch: main/);
});
