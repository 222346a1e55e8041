import assert from "node:assert/strict";
import { join } from "node:path";
import {
  FILE_WRITERS,
  globMatches,
  parseRule,
  ruleProblem,
  RuleSyntaxError,
} from "../../src/permission/rules.ts";
import { loadConfig } from "../../src/config/load.ts";
import { ConfigError } from "../../src/config/errors.ts";
import { fixture } from "../config/_fixture.ts";

Deno.test("parseRule() reads every form of the grammar", () => {
  assert.deepEqual(parseRule("Bash"), { source: "Bash", tools: ["bash"], matcher: { type: "any" } });
  assert.deepEqual(parseRule("Bash(npm run build)").matcher, {
    type: "exact",
    words: ["npm", "run", "build"],
  });
  assert.deepEqual(parseRule("Bash(npm run test:*)").matcher, {
    type: "prefix",
    words: ["npm", "run", "test"],
  });
  assert.deepEqual(parseRule("Bash(git log *)").matcher, { type: "prefix", words: ["git", "log"] });
  assert.deepEqual(parseRule("Bash(git * --stat)").matcher, { type: "glob", pattern: "git * --stat" });
  assert.deepEqual(parseRule("Bash=ls | wc -l").matcher, { type: "literal", text: "ls | wc -l" });
  assert.deepEqual(parseRule(`Bash(git commit -m "a b")`).matcher, {
    type: "exact",
    words: ["git", "commit", "-m", "a b"],
  });
  assert.deepEqual(parseRule("  Edit(docs/**) ").source, "Edit(docs/**)");
  assert.deepEqual(parseRule("Edit(docs/**)").tools, FILE_WRITERS);
  assert.deepEqual(parseRule("Edit(docs/**)").matcher, { type: "glob", pattern: "docs/**" });
  assert.deepEqual(parseRule("Write").tools, FILE_WRITERS);
  assert.deepEqual(parseRule("mcp__github__create_issue"), {
    source: "mcp__github__create_issue",
    tools: ["mcp__github__create_issue"],
    matcher: { type: "any" },
  });
  assert.deepEqual(parseRule("read_file(src/*)").tools, ["read_file"]);
  assert.deepEqual(parseRule("Edit(*)").matcher, { type: "any" });
});

Deno.test("parseRule() rejects malformed rules with the offset of the problem", () => {
  const cases: [string, RegExp, number][] = [
    ["", /empty/, 0],
    ["Bash(npm test", /not closed/, 13],
    ["Bash()", /needs a specifier/, 5],
    ["Bash=", /needs a command/, 5],
    ["Edit=docs", /only for Bash/, 4],
    ["mcp__*", /cannot hold a wildcard/, 5],
    ["Ba sh", /not a tool name/, 2],
    ["Bash(ls && rm x)", /shell operator "&"/, 8],
    ["Bash(echo $HOME)", /shell operator "\$"/, 10],
    [`Bash(echo "open)`, /quote opened here is not closed/, 10],
  ];
  for (const [text, message, offset] of cases) {
    assert.throws(() => parseRule(text), (error: unknown) => {
      assert.ok(error instanceof RuleSyntaxError, text);
      assert.match(error.message, message, text);
      assert.equal(error.offset, offset, text);
      return true;
    });
  }
});

Deno.test("globMatches() lets * cross slashes and anchors the whole subject", () => {
  assert.ok(globMatches("docs/**", "docs/a/b.md"));
  assert.ok(globMatches("docs/*", "docs/a/b.md"));
  assert.ok(globMatches("src/?.ts", "src/a.ts"));
  assert.ok(!globMatches("docs/**", "src/docs/a.md"));
  assert.ok(!globMatches("*.md", "a.md.ts"));
  assert.ok(globMatches("a+b(c).md", "a+b(c).md"), "regex characters are literal");
});

Deno.test("loadConfig() reports an invalid rule at its file, line and column", async () => {
  await using fx = await fixture();
  const file = await fx.write(
    join(fx.workspace, "reasonix.toml"),
    `[permissions]\ndeny = ["Bash(ls)",\n  "Bash(npm test"]\n`,
  );
  await assert.rejects(loadConfig({ workspace: fx.workspace, paths: fx.paths }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.file, file);
    assert.equal(error.line, 3);
    assert.equal(error.column, 17, "the column of the missing parenthesis inside the string");
    assert.equal(error.code, "config.invalid");
    assert.match(error.message, /permissions\.deny\[1\]/);
    assert.match(error.message, /not closed with "\)"/);
    return true;
  });
});

Deno.test("loadConfig() reports an invalid deny rule in the user config too", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[permissions]\ndeny = ["mcp__s__*"]\n`);
  await assert.rejects(
    loadConfig({ workspace: fx.workspace, paths: fx.paths }),
    /config\.toml:2:18: Cannot read "permissions\.deny\[0\]": tool names are matched exactly/,
  );
});

Deno.test("loadConfig() reads allow_dynamic_bash from the user config but not from a project", async () => {
  await using fx = await fixture();
  await fx.write(fx.paths.globalConfigFile, `[permissions]\nallow_dynamic_bash = true\n`);
  assert.equal(
    (await loadConfig({ workspace: fx.workspace, paths: fx.paths })).permissions.allowDynamicBash,
    true,
  );
  await fx.write(fx.paths.globalConfigFile, ``);
  await fx.write(join(fx.workspace, "reasonix.toml"), `[permissions]\nallow_dynamic_bash = true\n`);
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.equal(config.permissions.allowDynamicBash, false);
  assert.match(config.warnings[0]!.message, /allow_dynamic_bash.*ignored/);
});

Deno.test("loadConfig() adds --allowed-tools rules and rejects a malformed one", async () => {
  await using fx = await fixture();
  const config = await loadConfig({
    workspace: fx.workspace,
    paths: fx.paths,
    flags: { allowedTools: ["Bash(npm test:*)", "Edit(src/**)"] },
  });
  assert.deepEqual(config.permissions.allow, ["Bash(npm test:*)", "Edit(src/**)"]);
  await assert.rejects(
    loadConfig({ workspace: fx.workspace, paths: fx.paths, flags: { allowedTools: ["Bash("] } }),
    /Cannot read "--allowed-tools": "Bash\(": Cannot read permission rule/,
  );
});

Deno.test("parseRule() reads WebFetch(domain:<host glob>) and rejects other WebFetch specifiers", () => {
  assert.deepEqual(parseRule("WebFetch(domain:example.com)"), {
    source: "WebFetch(domain:example.com)",
    tools: ["web_fetch"],
    matcher: { type: "glob", pattern: "domain:example.com" },
  });
  assert.deepEqual(parseRule("WebFetch").tools, ["web_fetch"]);
  assert.match(ruleProblem("WebFetch(example.com)")!.message, /takes "domain:<host>"/);
  assert.match(ruleProblem("WebFetch(domain:)")!.message, /takes "domain:<host>"/);
});
