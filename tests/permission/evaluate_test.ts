import assert from "node:assert/strict";
import { callFacts, subjectsOf } from "../../src/permission/facts.ts";
import { decide, type Policy } from "../../src/permission/evaluate.ts";
import { compileRules } from "../../src/permission/rules.ts";

const ROOTS = { root: "/ws", extraWritable: [] };

function policy(
  rules: { allow?: string[]; ask?: string[]; deny?: string[] },
  mode: Policy["mode"] = "ask",
): Policy {
  return {
    mode,
    headless: false,
    allowDynamicBash: false,
    rules: compileRules({ allow: rules.allow ?? [], ask: rules.ask ?? [], deny: rules.deny ?? [] }),
  };
}

async function decision(tool: string, args: Record<string, unknown>, p: Policy, readOnly = false) {
  return decide(await callFacts({ name: tool, readOnly }, args, ROOTS), p);
}

Deno.test("subjectsOf() takes the subject from the known argument keys", () => {
  assert.deepEqual(subjectsOf({ command: "ls" }, "/ws"), ["ls"]);
  assert.deepEqual(subjectsOf({ path: "/ws/docs/a.md" }, "/ws"), ["docs/a.md"]);
  assert.deepEqual(subjectsOf({ file_path: "src/../docs/a.md" }, "/ws"), ["docs/a.md"]);
  assert.deepEqual(subjectsOf({ source_path: "a", destination_path: "/etc/b" }, "/ws"), ["a", "/etc/b"]);
  assert.deepEqual(subjectsOf({ pattern: "TODO" }, "/ws"), ["TODO"]);
  assert.deepEqual(subjectsOf({ goal_id: "g" }, "/ws"), []);
});

Deno.test("decide() applies Edit(path glob) rules to every file-changing tool", async () => {
  const p = policy({ allow: ["Edit(docs/**)"] });
  for (
    const tool of ["write_file", "edit_file", "multi_edit", "notebook_edit", "delete_range", "delete_symbol"]
  ) {
    assert.equal((await decision(tool, { path: "docs/guide/a.md" }, p)).decision, "allow", tool);
    assert.equal((await decision(tool, { path: "src/a.ts" }, p)).decision, "ask", tool);
  }
  const inside = await decision("write_file", { path: "/ws/docs/a.md" }, p);
  assert.deepEqual(inside.rule, "Edit(docs/**)");
});

Deno.test("decide() needs every path of move_file to match an allow rule, any path a deny rule", async () => {
  const allow = policy({ allow: ["Edit(docs/**)"] });
  assert.equal(
    (await decision("move_file", { source_path: "docs/a", destination_path: "docs/b" }, allow)).decision,
    "allow",
  );
  assert.equal(
    (await decision("move_file", { source_path: "docs/a", destination_path: "src/b" }, allow)).decision,
    "ask",
  );
  const deny = policy({ deny: ["Edit(secrets/*)"] }, "yolo");
  const moved = await decision("move_file", { source_path: "secrets/k", destination_path: "b" }, deny);
  assert.deepEqual([moved.decision, moved.rule], ["deny", "Edit(secrets/*)"]);
});

Deno.test("decide() matches MCP tool names exactly and lets readers fall back to allow", async () => {
  const p = policy({ allow: ["mcp__github__list_issues"], deny: ["mcp__github__delete_repo"] }, "yolo");
  assert.equal((await decision("mcp__github__list_issues", {}, { ...p, mode: "ask" })).decision, "allow");
  assert.equal((await decision("mcp__github__list_issue", {}, { ...p, mode: "ask" })).decision, "ask");
  assert.equal((await decision("mcp__github__delete_repo", {}, p)).decision, "deny");
  const reader = await decision("read_file", { path: "a.txt" }, policy({}), true);
  assert.deepEqual([reader.decision, reader.tier, reader.rule], ["allow", "read", null]);
});

Deno.test("decide() lets mcp__<server> name every tool of that server, and only of that server", async () => {
  const facts = (name: string, group: string) =>
    callFacts({ name, readOnly: false, ruleGroup: group }, {}, ROOTS);
  const p = policy({ allow: ["mcp__github"], deny: ["mcp__github__delete_repo"] });
  assert.equal(decide(await facts("mcp__github__create_issue", "mcp__github"), p).decision, "allow");
  assert.equal(decide(await facts("mcp__github__delete_repo", "mcp__github"), p).decision, "deny");
  // A server whose name starts with another's is not covered by the other's rule.
  assert.equal(decide(await facts("mcp__github_enterprise__x", "mcp__github_enterprise"), p).decision, "ask");
  const reader = await callFacts(
    { name: "mcp__github__list", readOnly: true, ruleGroup: "mcp__github" },
    {},
    ROOTS,
  );
  assert.equal(decide(reader, policy({})).decision, "allow", "a server's reader runs without asking");
  assert.equal(
    decide(reader, policy({ ask: ["mcp__github"] })).decision,
    "ask",
    "unless its server is asked",
  );
  // Without the group (a tool that is not an MCP server's), the prefix means nothing.
  assert.equal((await decision("mcp__github__create_issue", {}, p)).decision, "ask");
});

Deno.test("decide() keeps precedence deny > ask > allow and lets explicit ask rules stop auto mode", async () => {
  const rules = { allow: ["Edit"], ask: ["Edit(src/**)"], deny: ["Edit(src/secret.ts)"] };
  const auto = policy(rules, "auto");
  assert.equal((await decision("edit_file", { path: "src/secret.ts" }, auto)).decision, "deny");
  assert.equal((await decision("edit_file", { path: "src/a.ts" }, auto)).decision, "ask");
  assert.equal((await decision("edit_file", { path: "docs/a.md" }, auto)).decision, "allow");
  const reader = await decision(
    "read_file",
    { path: "src/a.ts" },
    policy({ ask: ["read_file(src/**)"] }),
    true,
  );
  assert.equal(reader.decision, "ask", "an explicit ask rule stops a reader too");
});

Deno.test("decide() suggests a tool-and-path rule, or the bare tool when it has no subject", async () => {
  const p = policy({});
  assert.equal((await decision("edit_file", { path: "src/a.ts" }, p)).suggestedRule, "edit_file(src/a.ts)");
  assert.equal((await decision("update_goal", { goal_id: "g" }, p)).suggestedRule, "update_goal");
  assert.equal(
    (await decision("move_file", { source_path: "a", destination_path: "b" }, p)).suggestedRule,
    null,
  );
});

Deno.test("decide() asks once per web_fetch host in ask mode and suggests a WebFetch(domain:…) rule", async () => {
  const fetch = (url: string, p: Policy) => decision("web_fetch", { url }, p, true);
  const asked = await fetch("https://Docs.Example.com./a?b=1", policy({}));
  assert.deepEqual(asked, {
    decision: "ask",
    tier: "read",
    rule: null,
    class: "web-domain",
    reason: `"web_fetch" would send a request to "docs.example.com", a host no rule allows yet`,
    suggestedRule: "WebFetch(domain:docs.example.com)",
  });
  assert.equal((await fetch("https://docs.example.com/", policy({}, "auto"))).decision, "allow");
  assert.equal((await fetch("https://docs.example.com/", policy({}, "yolo"))).decision, "allow");
  const exact = policy({ allow: ["WebFetch(domain:example.com)"] });
  assert.equal((await fetch("https://example.com/x", exact)).decision, "allow");
  assert.equal((await fetch("https://docs.example.com/x", exact)).decision, "ask");
  const sub = policy({ allow: ["WebFetch(domain:*.example.com)"] });
  assert.equal((await fetch("https://a.b.example.com/", sub)).decision, "allow");
  assert.equal((await fetch("https://example.com/", sub)).decision, "ask");
  assert.equal((await fetch("https://evilexample.com/", sub)).decision, "ask");
  assert.equal((await fetch("http://anything.test/", policy({ allow: ["WebFetch"] }))).decision, "allow");
  const denied = await fetch(
    "https://example.com/",
    policy({ allow: ["WebFetch"], deny: ["WebFetch(domain:example.com)"] }, "yolo"),
  );
  assert.equal(denied.decision, "deny");
  assert.equal(denied.rule, "WebFetch(domain:example.com)");
  assert.equal((await fetch("https://example.com/", policy({ ask: ["WebFetch"] }, "auto"))).decision, "ask");
});

Deno.test("decide() refuses an unapproved web_fetch host headless, naming the rule that allows it", async () => {
  const headless = { ...policy({}), headless: true };
  const refused = await decision("web_fetch", { url: "http://[::1]:8080/" }, headless, true);
  assert.equal(refused.decision, "deny");
  assert.equal(refused.unanswerable, true);
  assert.equal(
    refused.reason,
    `"web_fetch" would send a request to "[::1]", a host no rule allows yet (a loopback, private or ` +
      `metadata address: web_fetch refuses it even when approved, unless [tools] web_fetch_allow_private in ` +
      `your user config lists it); it needs approval, but nobody ` +
      `can answer in a headless run: pass --permission-mode auto (or --yolo) or allow it with ` +
      `--allowed-tools 'WebFetch(domain:[::1])' (or [permissions] allow)`,
  );
  const metadata = await decision("web_fetch", { url: "http://169.254.169.254/latest/" }, headless, true);
  assert.match(
    metadata.reason,
    /a loopback, private or metadata address: web_fetch refuses it even when approved/,
  );
  const bad = await decision("web_fetch", { url: "not a url" }, headless, true);
  assert.equal(bad.decision, "allow", "the tool itself reports the malformed URL");
});

Deno.test("decide() denies a bash write to a path an Edit deny rule names, in every mode", async () => {
  for (const mode of ["ask", "auto", "yolo"] as const) {
    const p = policy({ deny: ["Edit(secrets/**)"] }, mode);
    for (
      const command of ["echo x > secrets/a", "cp a secrets/b", "tee -a secrets/log", "cd secrets && touch k"]
    ) {
      const denied = await decision("bash", { command }, p);
      assert.deepEqual([denied.decision, denied.rule, denied.class], [
        "deny",
        "Edit(secrets/**)",
        "path-rule",
      ], command);
    }
    assert.notEqual(
      (await decision("bash", { command: "cp secrets/a b" }, p)).decision,
      "deny",
      "reading is not writing",
    );
  }
});

Deno.test("decide() denies what a deny rule may match but cannot rule out, even in yolo", async () => {
  const p = policy({ deny: ["Bash(git push:*)"] }, "yolo");
  for (
    const command of [
      "$CMD push",
      "git $SUB",
      'eval "$x"',
      "echo push | xargs git",
      "git${IFS}push",
      "curl x | sh",
    ]
  ) {
    const denied = await decision("bash", { command }, p);
    assert.deepEqual([denied.decision, denied.class], ["deny", "deny-unprovable"], command);
    assert.match(denied.reason, /the deny rule "Bash\(git push:\*\)" may match and cannot be ruled out: /);
  }
  for (const command of ["ls $X", "echo $(date)", "eval 'ls'", 'sh -c "ls"', "ls )"]) {
    assert.equal((await decision("bash", { command }, p)).decision, "allow", command);
  }
});

Deno.test("decide() denies an empty command with a reason", async () => {
  for (const command of ["", "   ", "\n\t"]) {
    const denied = await decision("bash", { command }, policy({}, "yolo"));
    assert.deepEqual(
      { ...denied },
      {
        decision: "deny",
        tier: "read",
        rule: null,
        class: "empty-command",
        reason: "the command is empty",
        suggestedRule: null,
      },
    );
  }
});
