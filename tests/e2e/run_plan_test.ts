/**
 * `reasonix run --permission-mode plan` through the real CLI: every writer is refused, nobody can
 * approve the plan headless, so the plan is the run's result (text and json) and nothing is written.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { runCli } from "../support/cli.ts";
import { type SimHome, withSimHome } from "../support/sim_home.ts";

const PLAN = {
  summary: "Fix add()",
  steps: [{ content: "Edit math.js", detail: "a - b → a + b" }, { content: "Run the test" }],
};

function script(): ScriptedReply[] {
  const call = { action: "call", capability_id: "tool:submit_plan", arguments: PLAN };
  return [
    { toolCalls: [{ name: "read_file", arguments: `{"path":"math.js"}` }] },
    {
      toolCalls: [
        {
          name: "edit_file",
          arguments: JSON.stringify({ path: "math.js", old_string: "a - b", new_string: "a + b" }),
        },
        { name: "bash", arguments: JSON.stringify({ command: "echo x > made.txt" }) },
      ],
    },
    { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] },
    { content: "Plan submitted." },
  ];
}

function withRun(body: (ctx: SimHome) => Promise<void>) {
  return withSimHome(script(), body, { files: { "math.js": "export const add = (a, b) => a - b;\n" } });
}

Deno.test("run --permission-mode plan: writers refused, the plan is the json result, nothing written", async () => {
  await withRun(async ({ sim, home, ws }) => {
    const run = await runCli(
      ["run", "--permission-mode", "plan", "--output-format", "json", "fix add"],
      { home, cwd: ws },
    );
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    assert.equal(result.subtype, "success");
    assert.equal(result.result, "Fix add()\n1. Edit math.js — a - b → a + b\n2. Run the test");
    assert.equal(Deno.readTextFileSync(join(ws, "math.js")), "export const add = (a, b) => a - b;\n");
    assert.ok(!existsSync(join(ws, "made.txt")));
    const tools = sim.requests[2]!.json.messages.filter((m: { role: string }) => m.role === "tool");
    assert.match(tools.at(-2).content, /^Error \[permission\.plan_mode\]: Not run \(edit_file\)/);
    assert.match(tools.at(-1).content, /^Error \[permission\.plan_mode\]: Not run \(bash\)/);
  });
});

Deno.test("run --permission-mode plan: text output prints the plan after the answer", async () => {
  await withRun(async ({ home, ws }) => {
    const run = await runCli(["run", "--permission-mode", "plan", "fix add"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /Plan submitted\.\n+Fix add\(\)\n1\. Edit math\.js — a - b → a \+ b\n2\. Run the test\n/,
    );
  });
});
