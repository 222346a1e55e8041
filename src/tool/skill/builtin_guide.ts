/**
 * @module
 * The body of the `reasonix-guide` skill: a short map of Reasonix for the model, drawn from docs/. The
 * docs stay the reference; this names what exists and where to look.
 */

export const REASONIX_GUIDE =
  `Use this guide to answer questions about Reasonix itself (the agent you are) and to
help the user configure it. Say when something is not covered here rather than guessing; the full
reference is in the docs/ folder of the Reasonix repository (CLI.md, CONFIG.md, TOOLS.md, PERMISSIONS.md,
SANDBOX.md, MCP.md, MEMORY.md, CONTEXT.md, SKILLS.md, SERVE.md, ACP.md).

## Commands
- \`reasonix [prompt]\`: the interactive shell. \`-c\` continues the latest session here, \`-r [query]\` resumes
  one; \`--model\`, \`--effort\`, \`--permission-mode ask|auto|yolo|plan\`, \`--add-dir\`, \`--dir\`.
- \`reasonix run "<task>"\`: headless; \`--output-format text|json|stream-json\`, \`--max-steps\`, the same
  model and permission flags. Gated calls nobody can approve are refused.
- \`reasonix review [--base REF | --commit SHA] [--json]\`: the review skill on the current diff, read-only.
- \`reasonix subagent list|create|edit|delete\`: manage subagent profiles (skills with \`runAs: subagent\`).
- \`reasonix serve\` (web UI and HTTP API), \`reasonix acp\` (editors speaking the Agent Client Protocol).
- \`reasonix config get|set|path\`, \`reasonix trust\` (approve a project's reasonix.toml), \`reasonix mcp
  list|add|import|remove|login\`, \`reasonix session list|show|search|rewind\`, \`reasonix cache explain\`,
  \`reasonix permission explain\`, \`reasonix doctor\`, \`reasonix setup\`, \`reasonix version\`.

## Slash commands (interactive)
/help, /quit, /compact [focus], /context, /status, /cost, /todo, /permissions [mode], /plan, /effort,
/model, /new, /clear, /resume, /rename, /export, /copy, /rewind, /branch, /switch, /tree, /memory,
/remember (or a line starting with #), /forget, /diff, /sandbox, /reload, /mcp, /theme, /language,
/verbose, /reasoning-language, /skills, and one /<name> per skill. Shift+Tab cycles the permission mode.

## Configuration
Files, later wins: built-in defaults, \`<home>/config.toml\` (home is ~/.reasonix unless the environment names another), the
workspace's \`reasonix.toml\` (settings looser than the user's apply only after \`reasonix trust\`), flags.
Main tables: \`[[providers]]\` (name, base_url, models, api_key_env; user config only), \`default_model\`,
\`[agent]\` (effort, max_steps, compact_ratio, system_prompt, reasoning_language), \`[tools]\` (enabled,
bash_timeout_seconds, output_budget_bytes), \`[permissions]\` (mode, allow, ask, deny rules such as
\`Bash(npm test:*)\` or \`Edit(src/**)\`), \`[sandbox]\` (allow_write, forbid_read, network, bash),
\`[skills]\` (paths, excluded_paths, disabled_skills, disable_implicit_invocation, max_depth),
\`[[plugins]]\` (MCP servers), \`[ui]\`, \`[network]\`, \`[sessions]\`, \`[serve]\`. API keys live in the
environment or \`<home>/.env\`, never in a project file.

## Tools
Sent directly: read_file, write_file, edit_file, grep, bash, todo_write, ask, use_capability and a few
more. Everything else is reached through use_capability (\`{"action":"call","capability_id":"tool:NAME",
"arguments":{…}}\`; "list", "search" and "inspect" discover them): glob, ls, multi_edit, move_file,
code_index, web_fetch, history, memory, the background-job tools, the skill tools and MCP tools
(\`mcp__server__tool\`). Every call passes the same permission rules and approvals.

## Skills
A skill is \`<name>/SKILL.md\` (or \`<name>.md\`) with frontmatter: name, description, invocation
(manual hides it from the model), runAs (inline or subagent), model, effort, read-only, allowed-tools.
Roots, first wins: the workspace's .reasonix/skills, .agents/skills, .agent/skills, .claude/skills, then
\`[skills] paths\`, then \`<home>/skills\`, then the built-ins. Inline skills load with read_skill, subagent
skills run with run_skill; the person types /<name>.

## Memory and instructions
AGENTS.md, REASONIX.md or CLAUDE.md files (global, project, directories) are read into the system prompt
at session start. The remember/forget/memory tools keep facts across sessions; /memory lists them.`;
