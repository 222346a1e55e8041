/**
 * Drives every built-in tool through the real loop: the simulator plays the model, one tool call per
 * step, and the test asserts on the disk and on the tool results the model received.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { builtinTools, PROXIED_TOOLS } from "../../src/tool/builtin/mod.ts";

interface Step {
  tool: string;
  args: Record<string, unknown>;
  expect: RegExp;
}

const NOTEBOOK = JSON.stringify(
  {
    cells: [{ cell_type: "markdown", metadata: {}, source: ["# Title"] }],
    metadata: { kernelspec: { name: "python3" } },
    nbformat: 4,
    nbformat_minor: 4,
  },
  null,
  1,
) + "\n";

const SOURCE = [
  "export function keep() {",
  "  return 1;",
  "}",
  "",
  "/** Gone soon. */",
  "export function obsolete() {",
  "  return 2;",
  "}",
  "",
].join("\n");

function steps(webUrl: string): Step[] {
  return [
    { tool: "ls", args: { path: "." }, expect: /^lib\.ts$/m },
    { tool: "glob", args: { pattern: "**/*.ts" }, expect: /lib\.ts/ },
    { tool: "grep", args: { pattern: "obsolete" }, expect: /^lib\.ts\n6:/m },
    { tool: "read_file", args: { path: "lib.ts" }, expect: /1\texport function keep/ },
    { tool: "code_index", args: { action: "search", query: "obs" }, expect: /lib\.ts:\d+ function obsolete/ },
    {
      tool: "write_file",
      args: { path: "notes/a.txt", content: "one\ntwo\nthree\nfour\n" },
      expect: /Wrote/,
    },
    {
      tool: "edit_file",
      args: { path: "notes/a.txt", old_string: "two", new_string: "TWO" },
      expect: /Edited/,
    },
    {
      tool: "multi_edit",
      args: {
        path: "notes/a.txt",
        edits: [{ old_string: "one", new_string: "ONE" }, { old_string: "four", new_string: "FOUR" }],
      },
      expect: /2/,
    },
    {
      tool: "delete_range",
      args: { path: "notes/a.txt", start_anchor: "TWO", end_anchor: "three" },
      expect: /2|removed|Deleted/i,
    },
    {
      tool: "move_file",
      args: { source_path: "notes/a.txt", destination_path: "notes/b.txt" },
      expect: /b\.txt/,
    },
    { tool: "delete_symbol", args: { path: "lib.ts", name: "obsolete" }, expect: /obsolete/ },
    {
      tool: "notebook_edit",
      args: {
        path: "nb.ipynb",
        cell_number: 1,
        new_source: "print(1)",
        cell_type: "code",
        edit_mode: "insert",
      },
      expect: /cell/i,
    },
    { tool: "web_fetch", args: { url: webUrl }, expect: /# Hello page/ },
    { tool: "bash", args: { command: "echo hi && exit 3" }, expect: /hi[\s\S]*exit code 3/ },
    {
      tool: "bash",
      args: { command: "echo bg-start; sleep 0.2; echo bg-end", run_in_background: true },
      expect: /bash-1/,
    },
    { tool: "wait", args: { job_id: "bash-1", timeout_ms: 10000 }, expect: /bg-end/ },
    { tool: "bash_output", args: { job_id: "bash-1" }, expect: /exit/i },
    { tool: "bash", args: { command: "sleep 100", run_in_background: true }, expect: /bash-2/ },
    { tool: "kill_shell", args: { job_id: "bash-2" }, expect: /bash-2/ },
    {
      tool: "todo_write",
      args: { todos: [{ content: "fix", status: "in_progress" }, { content: "test", status: "pending" }] },
      expect: /\[>\] fix/,
    },
    {
      tool: "ask",
      args: {
        questions: [{ header: "Lang", question: "Which?", options: [{ label: "TS" }, { label: "Go" }] }],
      },
      expect: /^No user answered/,
    },
    {
      tool: "complete_step",
      args: { summary: "fixed it", evidence: "verification", command: "node test.mjs" },
      expect: /\[x\] fix[\s\S]*\[>\] test/,
    },
  ];
}

function script(plan: Step[]): ScriptedReply[] {
  return [
    // A proxied tool is called the way the model calls it: through use_capability.
    ...plan.map((step) => ({ toolCalls: [callOf(step)] })),
    { content: "All tools exercised." },
  ];
}

function callOf(step: Step): { name: string; arguments: string } {
  if (!PROXIED_TOOLS.includes(step.tool)) return { name: step.tool, arguments: JSON.stringify(step.args) };
  const args = { action: "call", capability_id: `tool:${step.tool}`, arguments: step.args };
  return { name: "use_capability", arguments: JSON.stringify(args) };
}

Deno.test("every built-in tool works through the real loop against the simulator", async () => {
  const web = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response("<html><head><title>T</title></head><body><h1>Hello page</h1><p>text</p></body></html>", {
        headers: { "content-type": "text/html" },
      }),
  );
  const plan = steps(`http://127.0.0.1:${web.addr.port}/`);
  const sim = await DeepSeekSim.start({ script: script(plan) });
  // The page is served on loopback, which web_fetch reaches only when the user config lists it.
  const home = await makeHome({
    simUrl: sim.url,
    extraToml: `[tools]\nweb_fetch_allow_private = ["127.0.0.1"]\n`,
  });
  const ws = await makeWorkspace({ "lib.ts": SOURCE, "nb.ipynb": NOTEBOOK });
  try {
    const covered = new Set(plan.map((s) => s.tool));
    assert.deepEqual(
      builtinTools().map((t) => t.name).filter((n) => !covered.has(n)),
      [],
      "every tool is driven",
    );
    const run = await runCli(["run", "--permission-mode", "auto", "--output-format", "json", "exercise"], {
      home,
      cwd: ws,
    });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.equal(JSON.parse(run.stdout).result, "All tools exercised.");
    const final = sim.requests.at(-1)!.json.messages;
    const results = final.filter((m: { role: string }) => m.role === "tool");
    assert.equal(results.length, plan.length);
    plan.forEach((step, i) =>
      assert.match(results[i].content, step.expect, `${step.tool}: ${results[i].content}`)
    );
    assert.equal(await Deno.readTextFile(join(ws, "notes/b.txt")), "ONE\nFOUR\n");
    await assert.rejects(Deno.stat(join(ws, "notes/a.txt")), Deno.errors.NotFound);
    assert.equal(await Deno.readTextFile(join(ws, "lib.ts")), "export function keep() {\n  return 1;\n}\n");
    const nb = JSON.parse(await Deno.readTextFile(join(ws, "nb.ipynb")));
    assert.equal(nb.cells.length, 2);
    assert.equal(nb.cells[1].cell_type, "code");
    assert.deepEqual(nb.metadata, { kernelspec: { name: "python3" } });
  } finally {
    await sim.close();
    await web.shutdown();
    await removeAll(home, ws);
  }
});
