/**
 * @module
 * The one error policy of the command line. Every failure of every command reaches `reportError` as a
 * thrown value: it becomes code, message and hint (`describeError`), then text on stderr or the run JSON
 * result on stdout, and an exit status from EXIT_CODES (`exitCodeFor`). main.ts is its only caller.
 */
import { CommanderError } from "commander";
import { type ErrorFields, errorFields, errorText, isBrokenPipe, ReasonixError } from "../../lib/errors.ts";

/** Exit codes, keyed by error code prefix (longest match wins). Documented in docs/CLI.md. */
const EXIT_CODES: Record<string, number> = {
  "usage": 2,
  "config": 2,
  "config.missing_key": 1,
  "config.untrusted_provider_key": 1,
  "config.unknown_model": 1,
  "provider.rate_limited": 3,
  "provider.server": 3,
  "provider.network": 3,
  "provider.timeout": 3,
  "provider.truncated": 3,
  "turn.interrupted": 130,
  "turn.terminated": 143,
  "turn.hangup": 129,
  // 128 + SIGPIPE, as for any Unix tool whose reader left (`reasonix --help | head -1`).
  "output.broken_pipe": 141,
};

/** 0 for no error; otherwise the exit status of the longest matching prefix, 1 when none matches. */
export function exitCodeFor(code: string | null): number {
  if (code === null) return 0;
  let best = 1;
  let bestLength = -1;
  for (const [prefix, exit] of Object.entries(EXIT_CODES)) {
    const matches = code === prefix || code.startsWith(prefix + ".");
    if (matches && prefix.length > bestLength) [best, bestLength] = [exit, prefix.length];
  }
  return best;
}

/** Where a failure is told: stderr, or (for `run --output-format json` and friends) a JSON writer. */
export interface ErrorSink {
  writeError(text: string): void;
  /** Set when stdout carries JSON: the failure goes there as the run result, not as text. */
  writeJson?: (fields: ErrorFields) => void;
}

/**
 * `helpCommand` is the command line that lists the options of the command that failed
 * (`reasonix run --help`): usage errors without a hint of their own point there.
 */
export function reportError(error: unknown, sink: ErrorSink, helpCommand: string): number {
  if (isBrokenPipe(error)) return exitCodeFor("output.broken_pipe");
  const fields = describeError(error, helpCommand);
  if (fields === null) return 0;
  if (fields === HELP_SHOWN) return exitCodeFor("usage.help");
  try {
    if (sink.writeJson) sink.writeJson(fields);
    else sink.writeError(errorText(fields));
  } catch (printError) {
    if (!isBrokenPipe(printError)) throw printError;
  }
  return exitCodeFor(fields.code);
}

/** Commander printed the help as the answer to a wrong call (`reasonix session`): nothing to add. */
const HELP_SHOWN = Symbol("help shown");

/** Null when nothing failed (`--help`, `--version` end through an exception too). */
export function describeError(error: unknown, helpCommand: string): ErrorFields | typeof HELP_SHOWN | null {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return null;
    if (error.code === "commander.help" || error.code === "commander.helpDisplayed") return HELP_SHOWN;
    return commanderFields(error, helpCommand);
  }
  const fields = errorFields(error);
  if (error instanceof ReasonixError && fields.code.startsWith("usage.") && !fields.hint) {
    return { ...fields, hint: `Run "${helpCommand}" for the options` };
  }
  return fields;
}

/** `error: unknown option '--bogus'\n(Did you mean --model?)` → a usage error with a hint. */
function commanderFields(error: CommanderError, helpCommand: string): ErrorFields {
  const [first = "", ...rest] = error.message.replace(/^error:\s*/, "").split("\n");
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(" ").trim())?.[1];
  const kind = error.code.replace(/^commander\./, "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const message = (first.charAt(0).toUpperCase() + first.slice(1)).replace(/\.$/, "");
  const hint = suggestion
    ? `did you mean ${suggestion}? "${helpCommand}" lists the options`
    : `Run "${helpCommand}" for the options`;
  return { code: `usage.${kind}`, message, hint };
}
