import assert from "node:assert/strict";
import { callFacts } from "../../src/permission/facts.ts";
import { decide, type Policy } from "../../src/permission/evaluate.ts";
import { compileRules } from "../../src/permission/rules.ts";

const ROOTS = { root: "/ws", extraWritable: [] };

function plan(rules: { allow?: string[]; deny?: string[] } = {}, headless = false): Policy {
  return {
    mode: "plan",
    headless,
    allowDynamicBash: true,
    rules: compileRules({ allow: rules.allow ?? [], ask: [], deny: rules.deny ?? [] }),
  };
}

async function decision(tool: string, args: Record<string, unknown>, p: Policy, readOnly = false) {
  return decide(await callFacts({ name: tool, readOnly }, args, ROOTS), p);
}

Deno.test("decide() in plan mode refuses every writer, whatever allow rule or grant would let it run", async () => {
  const p = plan({ allow: ["Edit", "Bash", "mcp__s", "Bash=touch x"] });
  for (
    const tool of ["write_file", "edit_file", "multi_edit", "move_file", "delete_symbol", "mcp__s__wipe"]
  ) {
    const decided = await decision(tool, { path: "a.txt" }, p);
    assert.equal(decided.decision, "deny", tool);
    assert.equal(decided.class, "plan-mode", tool);
    assert.equal(decided.suggestedRule, null, "nothing to remember");
  }
  for (
    const command of ["touch x", "echo hi > f", "rm -rf build", "sh -c 'ls'", "echo $HOME", "git commit -m x"]
  ) {
    assert.equal((await decision("bash", { command }, p)).class, "plan-mode", command);
  }
});

Deno.test("decide() in plan mode lets readers run and keeps deny rules' own reasons", async () => {
  const p = plan({ deny: ["Bash(cat secrets.txt)", "Edit(locked/**)"] });
  assert.equal((await decision("read_file", { path: "a.txt" }, p, true)).decision, "allow");
  assert.equal((await decision("grep", { pattern: "x" }, p, true)).decision, "allow");
  for (const command of ["cat a.txt", "git status", "ls -la | head"]) {
    assert.equal((await decision("bash", { command }, p)).decision, "allow", command);
  }
  const denied = await decision("bash", { command: "cat secrets.txt" }, p);
  assert.equal(denied.class, "deny-rule");
  assert.equal((await decision("write_file", { path: "locked/a" }, p)).class, "deny-rule");
});

Deno.test("decide() in plan mode, headless: a writer is refused as plan mode, not as a missing approval", async () => {
  const decided = await decision("write_file", { path: "a.txt" }, plan({}, true));
  assert.equal(decided.class, "plan-mode");
  assert.equal(decided.unanswerable, undefined);
  assert.match(decided.reason, /^plan mode is on: "write_file" changes files or state/);
});
