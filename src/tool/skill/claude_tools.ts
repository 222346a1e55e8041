/**
 * @module
 * `allowed-tools` as Claude Code's skills write it (`Read, Grep, Bash(git diff:*)`), in our tool names.
 * The list only narrows which tools a child gets; a `Bash(…)` pattern does not grant anything here, so
 * it names `bash` and the session's permission policy still decides each command.
 */

const CLAUDE_NAMES: Readonly<Record<string, string>> = {
  Read: "read_file",
  Write: "write_file",
  Edit: "edit_file",
  MultiEdit: "multi_edit",
  NotebookEdit: "notebook_edit",
  Grep: "grep",
  Glob: "glob",
  LS: "ls",
  Bash: "bash",
  WebFetch: "web_fetch",
  TodoWrite: "todo_write",
  Task: "task",
};

/** Splits on commas and on spaces outside parentheses, so `Bash(git diff:*)` stays one item. */
export function splitToolList(value: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of value) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (char === "," || (depth === 0 && /\s/.test(char))) {
      items.push(current);
      current = "";
    } else current += char;
  }
  items.push(current);
  return items.map((item) => item.trim()).filter((item) => item !== "");
}

/** One `allowed-tools` item as our tool name: Claude's names mapped, a `(pattern)` suffix dropped. */
export function ourToolName(item: string): string {
  const bare = item.replace(/\(.*\)$/s, "").trim();
  return CLAUDE_NAMES[bare] ?? bare;
}
