/**
 * @module
 * What a per-program check returns, and the names of the classes of reasons a line gets its tier.
 */

/** Why a command or line got its tier; `reasonix permission explain` shows it. */
export type JudgeClass =
  | "read-only"
  | "reader-flags"
  | "program-option"
  | "dangerous-variable"
  | "nested-execution"
  | "dynamic-code"
  | "top-level-newline"
  | "lookalike-characters"
  | "heredoc"
  | "substitution"
  | "expansion"
  | "parse-error"
  | "unknown-program"
  | "program-by-path"
  | "write-redirect"
  | "path-writer"
  | "assignment";

export type Verdict =
  | { kind: "read" }
  | {
    kind: "write" | "tier1" | "tier2";
    reason: string;
    class: JudgeClass;
    /** Runs a shell string: its literal text, or null when the text is computed or read from input. */
    script?: string | null;
    /** Files it writes (null: named when the shell runs), beyond the path arguments of PATH_WRITERS. */
    paths?: (string | null)[];
  }
  /** Runs `argv` (the inner command). */
  | {
    kind: "wrap";
    argv: (string | null)[];
    reason: string;
    /** Only changes how the inner command is scheduled; otherwise running it is nested execution. */
    scheduling: boolean;
    tier1?: string;
    privileged?: boolean;
  };

export const READ: Verdict = { kind: "read" };

export type Judged = Extract<Verdict, { class: JudgeClass }>;

export function writes(reason: string, kind: JudgeClass = "reader-flags"): Judged {
  return { kind: "write", reason, class: kind };
}

export function tier2(reason: string, kind: JudgeClass): Judged {
  return { kind: "tier2", reason, class: kind };
}
