/**
 * @module
 * The session-context message: facts that are true at the start of a session (workspace, OS,
 * date, git branch). It is stored in the session with the first turn and replayed as stored, so a
 * resumed session keeps its prefix; what changes later rides the tail of the turn where it changed.
 */

export interface SessionFacts {
  workspace: string;
  os: string;
  arch: string;
  shell: string;
  /** YYYY-MM-DD in the user's local time. */
  date: string;
  gitBranch?: string;
  extraWritable?: readonly string[];
}

export function buildContextMessage(facts: SessionFacts): string {
  const lines = [
    `<session-context version="1">`,
    `Workspace: ${facts.workspace}`,
    `OS: ${facts.os} (${facts.arch}), shell: ${facts.shell}`,
    `Date at session start: ${facts.date}`,
  ];
  if (facts.gitBranch) lines.push(`Git branch: ${facts.gitBranch}`);
  else lines.push(`Git: not a repository`);
  if (facts.extraWritable && facts.extraWritable.length > 0) {
    lines.push(`Extra writable directories: ${facts.extraWritable.join(", ")}`);
  }
  lines.push(`</session-context>`);
  return lines.join("\n");
}

export function localDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
