/**
 * The skill tools against the SubagentPort seam. The port here records what it is asked and answers
 * from a list: it stands in for the subagent runner (built elsewhere), so what is proved is the request a
 * skill makes, not how a child runs.
 */
import assert from "node:assert/strict";
import { SkillCatalog } from "../../../src/tool/skill/catalog.ts";
import { builtinSkills } from "../../../src/tool/skill/builtin.ts";
import { skillTools } from "../../../src/tool/skill/tools.ts";
import type { Skill } from "../../../src/tool/skill/skill.ts";
import type { SubagentPort, SubagentRequest } from "../../../src/tool/subagent_port.ts";
import type { ToolContext } from "../../../src/tool/tool.ts";

const CHILD: Skill = {
  name: "child",
  description: "a narrowed writer",
  invocation: "auto",
  runAs: "subagent",
  model: "deepseek-v4-pro",
  effort: "high",
  readOnly: false,
  allowedTools: ["read_file", "edit_file"],
  body: "You are the child.",
  source: "project",
  path: "/ws/.reasonix/skills/child.md",
};

function recordingPort(asked: SubagentRequest[], ok = true): SubagentPort {
  return {
    run(request) {
      asked.push(request);
      return Promise.resolve({ ok, text: ok ? "child says hi" : "it broke", ref: "sub-1", sessionId: "s1" });
    },
  };
}

function tools(skills: Skill[]) {
  const [read, run, readOnly] = skillTools(new SkillCatalog({ skills, diagnostics: [] }));
  return { read: read!, run: run!, readOnly: readOnly! };
}

function ctx(port?: SubagentPort): ToolContext {
  return { signal: new AbortController().signal, ...(port ? { subagents: port } : {}) } as ToolContext;
}

Deno.test("run_skill passes the skill as the profile, its model, effort and allowed-tools as a narrowing", async () => {
  const asked: SubagentRequest[] = [];
  const { run, readOnly } = tools([CHILD, ...builtinSkills()]);
  assert.equal(run.readOnly, false);
  assert.equal(readOnly.readOnly, true);
  const result = await run.execute({ name: "child", arguments: "fix it" }, ctx(recordingPort(asked)));
  assert.equal(result.output, "child says hi\n\n(subagent result sub-1)");
  await readOnly.execute({ name: "review", arguments: "HEAD~1..HEAD" }, ctx(recordingPort(asked)));
  await readOnly.execute({ name: "child", arguments: "look only" }, ctx(recordingPort(asked)));
  assert.deepEqual(asked[0], {
    prompt: "fix it",
    description: "skill child",
    profile: {
      name: "child",
      body: "You are the child.",
      model: "deepseek-v4-pro",
      effort: "high",
      readOnly: false,
      allowedTools: ["read_file", "edit_file"],
    },
    readOnly: false,
    model: "deepseek-v4-pro",
    effort: "high",
    tools: ["read_file", "edit_file"],
  });
  assert.equal(asked[1]!.readOnly, true);
  assert.equal(asked[1]!.profile?.name, "review");
  assert.equal(asked[2]!.readOnly, true, "read_only_skill makes even a writer skill read-only");
});

Deno.test("run_skill reports a failed child, an inline skill and a missing port as tool errors", async () => {
  const { run, read } = tools([CHILD, ...builtinSkills()]);
  await assert.rejects(
    run.execute({ name: "child" }, ctx(recordingPort([], false))),
    /Skill "child" failed: it broke/,
  );
  await assert.rejects(
    run.execute({ name: "init" }, ctx(recordingPort([]))),
    /inline skill: call tool:read_skill/,
  );
  await assert.rejects(run.execute({ name: "child" }, ctx()), /cannot start subagents/);
  await assert.rejects(read.execute({ name: "child" }, ctx()), /runs as a subagent: call tool:run_skill/);
  await assert.rejects(
    read.execute({ name: "nope" }, ctx()),
    /There is no skill "nope"; the skills are: child, explore/,
  );
});
