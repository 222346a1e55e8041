/**
 * Effect tests for skills on the real assembly (boot → Controller → submit/loop → request body) against
 * the simulator: the catalog rides the session-context message, a slash-invoked inline skill pins its body
 * on the turn's tail, the model loads one through use_capability, and the prefix never moves.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bootController, type ResumeRequest } from "../../src/control/boot.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { bootOptions, withController } from "../support/controller_session.ts";
import { assertPrependOnly, assertStablePrefix } from "../support/prefix_guard.ts";

type Controller = Awaited<ReturnType<typeof bootController>>;
type Message = { role: string; content: string };

const FILES = {
  "a.txt": "alpha\n",
  // Claude Code's layout, unchanged.
  ".claude/skills/deploy/SKILL.md":
    `---\nname: deploy\ndescription: Deploy the app to an environment\nallowed-tools: Bash, Read\n---\nRun \`make deploy ENV=<env>\` and check the health URL.\n`,
  ".reasonix/skills/secret-ritual.md":
    `---\ndescription: Only by hand\ninvocation: manual\n---\nDo the ritual.\n`,
  ".agents/skills/broken/SKILL.md": `---\ndescription: [unclosed\n---\nbody\n`,
};

interface Session {
  sim: DeepSeekSim;
  home: string;
  ws: string;
  boot(resume?: ResumeRequest): Promise<Controller>;
}

async function withSession(script: ScriptedReply[], body: (session: Session) => Promise<void>) {
  const sim = await DeepSeekSim.start({ script });
  const ws = await makeWorkspace(FILES);
  const home = await makeHome({ simUrl: sim.url, extraToml: `[skills]\npaths = ["${join(ws, "team")}"]\n` });
  // The home is hidden from tools, yet its skills load; a symlink there to the home's .env does not.
  await Deno.mkdir(join(home, "skills/notes"), { recursive: true });
  await Deno.writeTextFile(
    join(home, "skills/notes/SKILL.md"),
    `---\ndescription: Keep notes\n---\nWrite notes.\n`,
  );
  await Deno.symlink(join(home, ".env"), join(home, "skills/env.md"));
  await Deno.mkdir(join(ws, "team/lint"), { recursive: true });
  await Deno.writeTextFile(
    join(ws, "team/lint/SKILL.md"),
    `---\ndescription: Lint the team way\n---\nRun lint.\n`,
  );
  const opened: Controller[] = [];
  const boot = async (resume?: ResumeRequest) => {
    const controller = await bootController(bootOptions(home, ws, {
      flags: { permissionMode: "yolo" },
      now: () => new Date("2026-12-01T08:00:00Z"),
      ...(resume ? { resume } : {}),
    }));
    opened.push(controller);
    return controller;
  };
  try {
    await body({ sim, home, ws, boot });
  } finally {
    for (const controller of opened) await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
}

function messages(sim: DeepSeekSim, index: number): Message[] {
  return sim.requests[index]!.json.messages as Message[];
}

function capability(name: string, args: Record<string, unknown>): ScriptedReply {
  return {
    reasoning: `use ${name}`,
    toolCalls: [{
      name: "use_capability",
      arguments: JSON.stringify({ action: "call", capability_id: `tool:${name}`, arguments: args }),
    }],
  };
}

Deno.test("skills: /name pins an inline skill's body on the turn's tail; the catalog and prefix stay put", async () => {
  await withSession([{ content: "deployed" }, { content: "ok" }, { content: "resumed" }], async (s) => {
    const first = await s.boot();
    const result = await first.submit("/deploy staging");
    assert.equal(result.kind, "turn");
    await first.submit("thanks");
    await first.close();
    const again = await s.boot({ kind: "latest" });
    await again.submit("/status");
    await again.runTurn("still there?");
    const context = messages(s.sim, 0)[1]!.content;
    assert.match(context, /<skills>\n[^]*\n- deploy: Deploy the app to an environment\n[^]*<\/skills>$/);
    assert.ok(!context.includes("secret-ritual"), "a manual skill is not in the model's catalog");
    assert.ok(
      context.includes("\n- notes: Keep notes\n") && context.includes("\n- lint: Lint the team way\n"),
    );
    assert.ok(!context.includes("DEEPSEEK_API_KEY") && !context.includes("- env"));
    assert.ok(!context.includes("make deploy"), "bodies load on demand");
    assert.equal(
      messages(s.sim, 0).at(-1)!.content,
      `/deploy staging\n\n<skill-pin name="deploy">\nRun \`make deploy ENV=<env>\` and check the health URL.\n</skill-pin>`,
    );
    assert.equal(messages(s.sim, 1).at(-1)!.content, "thanks");
    const bodies = s.sim.requests.map((request) => request.body);
    assert.equal(bodies.length, 3);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
  });
});

Deno.test("skills: a manual skill runs by slash; /skills lists sources and the broken file's line", async () => {
  await withSession([{ content: "done" }], async (s) => {
    const controller = await s.boot();
    await controller.submit("/secret-ritual");
    assert.match(messages(s.sim, 0).at(-1)!.content, /^\/secret-ritual\n\n<skill-pin name="secret-ritual">/);
    const listing = await controller.submit("/skills");
    assert.equal(listing.kind, "command");
    const text = listing.kind === "command" ? listing.output.join("\n") : "";
    assert.match(
      text,
      /\/deploy +Deploy the app to an environment\n +inline · project · .*\.claude\/skills\/deploy\/SKILL\.md/,
    );
    assert.match(text, /\/review +Review a change[^\n]*\n +subagent, read-only · builtin · builtin:review/);
    assert.match(text, /\/secret-ritual[^\n]*\n +inline, manual · project/);
    assert.ok(
      text.includes(
        `${join(s.ws, ".agents/skills/broken/SKILL.md")}:2: skipped: its frontmatter is not valid YAML`,
      ),
    );
    assert.ok(controller.commands.complete("/dep").includes("/deploy"));
    assert.match(text, /env\.md: not read/);
  });
});

Deno.test("skills: the model loads an inline skill through use_capability and runs a subagent skill", async () => {
  const script = [
    capability("read_skill", { name: "deploy", arguments: "prod" }),
    capability("read_skill", { name: "secret-ritual" }),
    capability("run_skill", { name: "review", arguments: "the last commit" }),
    { content: "No findings in the last commit." }, // the review child's answer
    {
      reasoning: "the Go id",
      toolCalls: [{
        name: "use_capability",
        arguments: JSON.stringify({
          action: "call",
          capability_id: "skill:deploy",
          arguments: { arguments: "qa" },
        }),
      }],
    },
    { content: "done" },
  ];
  await withSession(script, async (s) => {
    const controller = await s.boot();
    assert.equal((await controller.runTurn("ship it")).subtype, "success");
    const tools = messages(s.sim, 5).filter((message) => message.role === "tool").map((m) => m.content);
    const child = messages(s.sim, 3);
    assert.ok(child[0]!.content.includes("review"), "the review skill's body is the child's system prompt");
    assert.match(child.at(-1)!.content, /the last commit/);
    assert.equal(
      tools[0],
      `<skill-pin name="deploy">\nRun \`make deploy ENV=<env>\` and check the health URL.\n</skill-pin>\n\nArguments: prod`,
    );
    assert.match(tools[1]!, /There is no skill "secret-ritual"/);
    assert.match(tools[2]!, /No findings in the last commit\./);
    assert.equal(
      tools[3],
      tools[0]!.replace("prod", "qa"),
      "skill:<name> loads the skill as read_skill does",
    );
    const parent = s.sim.requests.filter((_, index) => index !== 3);
    assertStablePrefix(parent.map((request) => request.body));
  });
});

Deno.test("skills: a resumed session keeps its stored catalog; a new skill is told on the tail", async () => {
  await withSession([{ content: "one" }, { content: "two" }], async (s) => {
    const first = await s.boot();
    await first.runTurn("hello");
    await first.close();
    await Deno.mkdir(join(s.ws, ".reasonix/skills/fresh"), { recursive: true });
    await Deno.writeTextFile(
      join(s.ws, ".reasonix/skills/fresh/SKILL.md"),
      `---\ndescription: Added later\n---\nNew.\n`,
    );
    const again = await s.boot({ kind: "latest" });
    await again.runTurn("and now?");
    assert.deepEqual(
      messages(s.sim, 1).slice(0, 2),
      messages(s.sim, 0).slice(0, 2),
      "the prefix is as stored",
    );
    const tail = messages(s.sim, 1).at(-1)!.content;
    assert.match(
      tail,
      /^and now\?\n\n<turn-context>\nThe skills available changed since this session started/,
    );
    assert.ok(tail.includes("\n- fresh: Added later\n"));
    assertPrependOnly(s.sim.requests.map((request) => request.body));
  });
});

Deno.test("skills: disable_implicit_invocation keeps the catalog and the skill tools from the model", async () => {
  const script = [capability("read_skill", { name: "deploy" }), { content: "ok" }];
  const extraToml = `[skills]\ndisable_implicit_invocation = true\n`;
  const options = { script, files: FILES, extraToml, flags: { permissionMode: "yolo" }, listen: false };
  await withController(options, async ({ sim, controller }) => {
    await controller.runTurn("deploy");
    assert.ok(messages(sim, 0)[1]!.content.endsWith("</session-context>"), "no <skills> block");
    const tool = messages(sim, 1).find((m) => m.role === "tool")!;
    assert.match(tool.content, /^Error \[capability\.unknown\]: There is no capability "tool:read_skill"/);
    const listing = await controller.submit("/skills");
    assert.ok(
      listing.kind === "command" && listing.output.join("\n").includes("disable_implicit_invocation"),
    );
  });
});
