/**
 * @module
 * `reasonix frobnicate`: a usage error that names the nearest command, or says the Go Reasonix has it.
 */
import { ReasonixError } from "../../lib/errors.ts";

/** Commands of the Go Reasonix 1.38 that this version does not have. */
const GO_ONLY = [
  "web",
  "serve",
  "acp",
  "hook",
  "task",
  "plugin",
  "remote",
  "bot",
  "report",
  "init",
];

function nearestCommand(word: string, commands: readonly string[]): { name: string } | undefined {
  return commands
    .map((name) => ({ name, distance: editDistance(word.toLowerCase(), name) }))
    .filter((c) => c.distance <= Math.max(1, Math.floor(c.name.length / 3)))
    .sort((a, b) => a.distance - b.distance)[0];
}

/** `reasonix sesion list`: a misspelt command, or one of the Go Reasonix's, rather than a prompt. */
export function looksLikeCommand(word: string, commands: readonly string[]): boolean {
  return GO_ONLY.includes(word) || nearestCommand(word, commands) !== undefined;
}

export function unknownCommandError(word: string, commands: readonly string[]): ReasonixError {
  const near = nearestCommand(word, commands);
  const all = `did you mean one of: ${commands.join(", ")}? ("reasonix help <command>" explains one)`;
  const hint = near
    ? `did you mean "reasonix ${near.name}"?`
    : GO_ONLY.includes(word)
    ? `"${word}" is a Go Reasonix command this version does not have yet; ${all}`
    : all;
  return new ReasonixError("usage.unknown_command", `Unknown command "${word}"`, { hint });
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}
