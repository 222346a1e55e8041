/**
 * The skill tools against the SubagentPort seam. The port here records what it is asked and answers
 * from a list: it stands in for the subagent runner (built elsewhere), so what is proved is the request a
 * skill makes, not how a child runs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
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

Deno.test("read_skill reads a file of a folder skill's folder, and nothing outside it", async () => {
  const root = await Deno.makeTempDir({ prefix: "reasonix-skill-ref-" });
  try {
    const home = join(root, "home");
    await Deno.mkdir(join(home, "skills/pdf"), { recursive: true });
    await Deno.writeTextFile(join(home, "skills/pdf/reference.md"), "Use pdftotext.\n");
    await Deno.writeTextFile(join(home, ".env"), "KEY=secret\n");
    const folder = await Deno.realPath(join(home, "skills/pdf"));
    const pdf: Skill = { ...CHILD, name: "pdf", runAs: "inline", path: join(folder, "SKILL.md"), folder };
    const { read } = tools([pdf, ...builtinSkills()]);
    // The home is hidden from tools, as boot makes it.
    const context = { ...ctx(), workspace: { root, extraWritable: [], forbidRead: [home] } } as ToolContext;
    assert.equal(
      (await read.execute({ name: "pdf", reference: "reference.md" }, context)).output,
      "Use pdftotext.\n",
    );
    await assert.rejects(
      read.execute({ name: "pdf", reference: "../../.env" }, context),
      /outside the skill's folder/,
    );
    await assert.rejects(
      read.execute({ name: "init", reference: "x.md" }, context),
      /has no folder of files/,
    );
    // The folder swapped for a symlink after the skill loaded (say by a command the model ran): the
    // reference resolves outside the folder as it loaded, and is refused.
    await Deno.mkdir(join(root, "elsewhere"));
    await Deno.writeTextFile(join(root, "elsewhere/history"), "secret history\n");
    await Deno.remove(folder, { recursive: true });
    await Deno.symlink(join(root, "elsewhere"), folder);
    await assert.rejects(
      read.execute({ name: "pdf", reference: "history" }, context),
      /outside the skill's folder/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
