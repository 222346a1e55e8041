/**
 * The seam between skills and subagents: a skill with `runAs: subagent` (and `task(profile=…)`) runs a child
 * through `SubagentPort`; `task` resolves a profile name through `ProfileSource`. Both ride on ToolContext.
 */

/** A subagent profile: a skill's frontmatter and body (the body is the child's whole system prompt). */
export interface SubagentProfile {
  name: string;
  body: string;
  model?: string;
  effort?: string;
  readOnly?: boolean;
  allowedTools?: readonly string[];
}

export interface SubagentRequest {
  prompt: string;
  description?: string;
  profile?: SubagentProfile;
  /** Call arguments; they win over the profile's frontmatter, not over per-profile config entries. */
  model?: string;
  effort?: string;
  /** A read-only child never gets a writer tool (read_only_task, `read-only: true` skills). */
  readOnly: boolean;
  /** Narrows the child's tools (`allowed-tools`, the `tools` argument); never widens them. */
  tools?: readonly string[];
  /** What a writer child may change; omitted = the whole workspace (serialised with every other writer). */
  writePaths?: readonly string[];
  maxSteps?: number;
  /** A finished child's ref: that child's session takes `prompt` as its next turn (`task` only). */
  continueFrom?: string;
}

export interface SubagentOutcome {
  ok: boolean;
  /** The child's final answer (or its error text). */
  text: string;
  /** A stable reference `read_subagent_result` pages. */
  ref: string;
  /** The child's own session id (linked to the parent's). */
  sessionId: string;
}

export interface SubagentPort {
  run(request: SubagentRequest, signal: AbortSignal): Promise<SubagentOutcome>;
}

export interface ProfileSource {
  /** A skill usable as a subagent profile, by name; undefined when there is none. */
  profile(name: string): SubagentProfile | undefined;
}
