import assert from "node:assert/strict";
import { initBashParser, parseBash } from "../../src/permission/bash_parse.ts";

Deno.test("parseBash() splits lists, pipelines and substitutions into simple commands", async () => {
  await initBashParser();
  const script = await parseBash(`FOO=1 git log -n 3 | head; (cd src && echo "$(pwd)") > out 2>&1`);
  assert.equal(script.error, null);
  assert.deepEqual(
    script.commands.map((command) => [command.argv.map((word) => word.value), command.substituted]),
    [
      [["git", "log", "-n", "3"], false],
      [["head"], false],
      [["cd", "src"], false],
      [["echo", null], false],
      [["pwd"], true],
    ],
  );
  assert.deepEqual(script.commands[0]!.assignments, ["FOO=1"]);
  assert.deepEqual(script.redirects.map((redirect) => [redirect.op, redirect.target?.value]), [
    [">", "out"],
    [">&", "1"],
  ]);
  assert.deepEqual(script.features.map((feature) => feature.kind), ["assignment", "command_substitution"]);
});

Deno.test("parseBash() marks commands whose exit status cannot fail the line", async () => {
  const cases: [string, [string, boolean][]][] = [
    ["a || b", [["a", true], ["b", true]]],
    ["! c", [["c", true]]],
    ["if d; then e; elif f; then g; else h; fi", [["d", true], ["e", true], ["f", true], ["g", true], [
      "h",
      true,
    ]]],
    ["while i; do j; done", [["i", true], ["j", true]]],
    ["for k in 1; do l; done", [["l", true]]],
    ["case x in x) m;; esac", [["m", true]]],
    ["f() { n; }", [["n", true]]],
    ["o &", [["o", true]]],
    ["p | q", [["p", true], ["q", false]]],
    ["r && s", [["r", false], ["s", false]]],
    ["t || u && v", [["t", true], ["u", true], ["v", false]]],
    ["w; x\ny # done", [["w", true], ["x", true], ["y", false]]],
    ["(z; a) && { b; c; }", [["z", true], ["a", false], ["b", true], ["c", false]]],
  ];
  for (const [line, expected] of cases) {
    const script = await parseBash(line);
    const hidden = script.commands.map((command) => [command.argv[0]!.value, command.statusHidden]);
    assert.deepEqual(hidden, expected, line);
  }
});

Deno.test("parseBash() removes quotes the way the shell does and marks globs", async () => {
  const script = await parseBash(`r'm' "-r"f \\x $'a\\tb' *.ts "*.md" {a,b}`);
  assert.deepEqual(script.commands[0]!.argv.map((word) => [word.value, word.glob]), [
    ["rm", false],
    ["-rf", false],
    ["x", false],
    ["a\tb", false],
    ["*.ts", true],
    ["*.md", false],
    ["{a,b}", true],
  ]);
});

Deno.test("parseBash() keeps the words after a redirect as arguments of the command", async () => {
  const script = await parseBash("echo > out.txt hello world");
  assert.deepEqual(script.commands[0]!.argv.map((word) => word.value), ["echo", "hello", "world"]);
  assert.deepEqual(script.redirects.map((redirect) => redirect.target?.value), ["out.txt"]);
});

Deno.test("parseBash() reports a line it cannot read instead of throwing", async () => {
  for (const line of ["ls $(", `echo "open`, "if then fi", "ls )"]) {
    const script = await parseBash(line);
    assert.match(script.error ?? "", /cannot read/, line);
  }
});

Deno.test("parseBash() reads [[ ]] and case, which the older grammar build crashed on", async () => {
  const script = await parseBash(`if [[ -f a && $x == y ]]; then cat a; fi; case $x in a) ls;; esac`);
  assert.equal(script.error, null);
  assert.deepEqual(script.commands.map((command) => command.argv[0]?.value), ["cat", "ls"]);
});

Deno.test("parseBash() parses literal shell strings ahead, also behind wrappers", async () => {
  const script = await parseBash(`sudo bash -c "git push" && eval 'npm publish' && sh -c "$X"`);
  assert.deepEqual([...script.inner.keys()], ["git push", "npm publish"]);
  assert.deepEqual(script.inner.get("git push")!.commands[0]!.argv.map((word) => word.value), [
    "git",
    "push",
  ]);
});

Deno.test("parseBash() records quoted ranges, assigned names and top-level line breaks", async () => {
  const script = await parseBash(`X=1 ls 'a' "b" # c\nexport PATH\nfor I in 1; do :; done`);
  assert.deepEqual(script.quoted.map(([start, end]) => script.source.slice(start, end)), [
    "'a'",
    '"b"',
    "# c",
  ]);
  assert.deepEqual(script.assigned, ["X", "PATH", "I"]);
  assert.equal(script.topLevelNewline, true);
  const heredoc = await parseBash("cat <<EOF\nls\nEOF");
  assert.equal(heredoc.topLevelNewline, false, "a heredoc body is not a second command");
  assert.equal((await parseBash("{ ls\npwd; }")).topLevelNewline, false);
});
