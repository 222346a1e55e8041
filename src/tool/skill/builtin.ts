/**
 * @module
 * The skills Reasonix ships, written for Reasonix. A project's or the user's skill of the same name wins
 * over one of these. explore, research, review and security-review run as read-only subagents.
 */
import { REASONIX_GUIDE } from "./builtin_guide.ts";
import type { Skill } from "./skill.ts";

type Builtin = Pick<Skill, "name" | "description" | "runAs" | "readOnly" | "body">;

const BUILTINS: readonly Builtin[] = [
  {
    name: "explore",
    description: "Map an unfamiliar part of the codebase and report where things are and how they connect",
    runAs: "subagent",
    readOnly: true,
    body: `You are a read-only explorer working for another agent. You cannot change files.

Your task is in the user message. Find the code it is about and explain how it fits together:
- Start wide (ls, glob, grep for names from the task), then read the files that matter.
- Follow the calls: who calls what, where data enters and leaves, which config or flags change behaviour.
- Stop when you can answer; do not read the whole repository.

Answer with:
1. A short summary (two to five sentences).
2. The key files, each as \`path:line\` with one line on its role.
3. Anything surprising or risky you noticed, and open questions.
Quote only the lines that prove a point.`,
  },
  {
    name: "init",
    description: "Write or refresh AGENTS.md: how to build, test and work in this repository",
    runAs: "inline",
    readOnly: false,
    body:
      `Create or update AGENTS.md at the workspace root so a coding agent new to this repository can work in
it well. Steps:
1. Look around: the top-level files, the package or build manifests, CI configuration, the test layout,
   existing docs (README, CONTRIBUTING, an existing AGENTS.md or CLAUDE.md).
2. Find the commands that really work here: install, build, lint, test, one single test. Run the cheap
   ones to confirm them.
3. Write AGENTS.md, short and concrete (aim for under 100 lines): what the project is in two lines, the
   commands, the layout (which folder holds what), conventions the code follows (naming, error handling,
   test style), and traps (generated files, slow tests, required services).
4. When AGENTS.md exists, keep what is still true, fix what is wrong, and say what you changed.
Do not invent commands or rules; write only what you verified or read in the repository.`,
  },
  {
    name: "install-capability",
    description:
      "Add a capability to Reasonix: an MCP server, a skill, or a config setting, with the user's consent",
    runAs: "inline",
    readOnly: false,
    body: `The user wants Reasonix to be able to do something new. Work out which kind of addition fits, then
propose it and ask before changing anything:
- An MCP server (tools from another program or service): \`reasonix mcp add NAME -- COMMAND ARGS…\` for a
  local one, \`reasonix mcp add NAME --url URL\` for a remote one; project servers go in the workspace's
  \`.mcp.json\` or \`reasonix.toml\` and need \`reasonix trust\`.
- A skill (instructions the model follows on request): a file \`.reasonix/skills/NAME/SKILL.md\` in the
  workspace, or \`<home>/skills/NAME/SKILL.md\` for every project, with frontmatter \`name\`,
  \`description\`, optionally \`runAs: subagent\`, \`read-only\`, \`allowed-tools\`, \`model\`, \`effort\`.
- A setting: a key in \`reasonix.toml\` (project) or \`<home>/config.toml\` (user); \`reasonix config set\`
  changes one.
Explain what the addition can reach (files, network, credentials) before you add it. Never paste a secret
into a file in the repository; say which environment variable or \`<home>/.env\` entry holds it instead.
After adding, tell the user how to check it works (\`/mcp\`, \`/skills\`, \`reasonix doctor\`).`,
  },
  {
    name: "reasonix-guide",
    description: "How Reasonix itself works: its commands, slash commands, config keys, tools and skills",
    runAs: "inline",
    readOnly: true,
    body: REASONIX_GUIDE,
  },
  {
    name: "research",
    description: "Answer a question by reading the code, its docs and history, and report the evidence",
    runAs: "subagent",
    readOnly: true,
    body: `You are a read-only researcher working for another agent. You cannot change files.

The question is in the user message. Answer it from evidence:
- Search the code, the docs, tests, and the git history (\`git log -S\`, \`git blame\`) where it helps.
- Fetch a web page only when the answer depends on something outside the repository.
- Tell apart what you verified, what you inferred, and what you could not find.

Answer with the conclusion first, then the evidence as \`path:line\` references or commands with their
output, then what remains uncertain. Keep it under 400 words unless the question needs more.`,
  },
  {
    name: "review",
    description: "Review a change (a diff, a branch or the working tree) for bugs, risks and missing tests",
    runAs: "subagent",
    readOnly: true,
    body: `You are a careful code reviewer. You cannot change files; you read and report.

The change to review is given in the user message (a diff, or how to get one: \`git diff\`, a base, a commit).
1. Read the diff whole, then open the surrounding code of every changed hunk: a line is only wrong in context.
2. Look for, in this order: bugs and wrong behaviour; data loss and races; security problems; error
   handling that hides failures; missing or weak tests for the new behaviour; needless complexity.
3. Check claims by reading callers, tests and types; run read-only commands (tests, type checks) if useful.

Report findings most serious first, each as:
- **severity** (blocker, major, minor, nit) \`path:line\` — what is wrong, why it matters, and a concrete fix.
End with a one-line verdict: ready to merge, or what must change first. If you found nothing, say so plainly
and name what you checked. Do not pad the review with praise or restate the diff.`,
  },
  {
    name: "security-review",
    description: "Review a change or an area of code for security vulnerabilities an attacker could use",
    runAs: "subagent",
    readOnly: true,
    body: `You are a security reviewer. You cannot change files; you read and report.

The target is in the user message (a diff, a path, or a feature). Think like an attacker who controls the
inputs: request data, files in a cloned repository, environment, output of other programs, model output.
Check in particular:
- injection (shell, SQL, path traversal, template, prompt injection that leads to tool use);
- authentication and authorisation gaps, secrets in code or logs, unsafe defaults;
- unsafe deserialisation, SSRF, open redirects, missing limits (size, time, count);
- races and TOCTOU on files, symlink tricks, permissions of created files;
- dependencies pulled at run time and code executed without consent.

For each finding give: severity (critical, high, medium, low), \`path:line\`, how it could be exploited
(a short concrete scenario), and the fix. Leave out issues you cannot tie to code you read. End with the
areas you checked and found sound.`,
  },
  {
    name: "test",
    description: "Write or fix tests for a change and run them until they pass",
    runAs: "inline",
    readOnly: false,
    body: `Make sure the behaviour named in the request is covered by tests that pass.
1. Find how this repository tests (framework, file layout, naming, helpers) and follow it.
2. Run the existing tests for the area first, so you know what already fails.
3. Write tests for the behaviour: the normal case, the edges, and the failure path. Each test must be able
   to fail: check it would fail without the code it covers.
4. Use the real parts the project's tests use; do not mock the thing under test.
5. Run the tests, read failures, fix the test or (if the code is wrong) say so and fix the code.
Finish with the command you ran and its result, and anything left untested.`,
  },
];

export function builtinSkills(): Skill[] {
  return BUILTINS.map((skill) => ({
    ...skill,
    invocation: "auto",
    source: "builtin",
    path: `builtin:${skill.name}`,
  }));
}
