import assert from "node:assert/strict";
import { Command } from "commander";
import { describeError, exitCodeFor, reportError } from "../../../src/frontends/cli/report_error.ts";
import { ReasonixError } from "../../../src/lib/errors.ts";

/** What commander throws for these arguments, with its own printing switched off. */
function commanderFailure(args: string[]): unknown {
  const command = new Command("demo").exitOverride().configureOutput({
    writeOut: () => {},
    writeErr: () => {},
    outputError: () => {},
  }).option("--model <ref>").argument("<task>").action(() => {});
  try {
    command.parse(args, { from: "user" });
  } catch (error) {
    return error;
  }
  throw new Error("commander accepted the arguments");
}

function reported(error: unknown, json = false): { code: number; stderr: string; json: unknown[] } {
  let stderr = "";
  const lines: unknown[] = [];
  const sink = {
    writeError: (text: string) => stderr += text,
    ...(json ? { writeJson: (f: unknown) => lines.push(f) } : {}),
  };
  return { code: reportError(error, sink, "demo --help"), stderr, json: lines };
}

Deno.test("reportError() words commander's usage errors as code, message and hint (exit 2)", () => {
  assert.deepEqual(reported(commanderFailure(["--modle", "x"])), {
    code: 2,
    stderr: `error: Unknown option '--modle'\nhint: did you mean --model? "demo --help" lists the options\n`,
    json: [],
  });
  assert.deepEqual(describeError(commanderFailure([]), "demo --help"), {
    code: "usage.missing_argument",
    message: "Missing required argument 'task'",
    hint: 'Run "demo --help" for the options',
  });
  assert.equal(describeError(commanderFailure(["--help"]), "demo --help"), null);
  assert.equal(reported(commanderFailure(["--help"])).code, 0);
});

Deno.test("reportError() keeps a ReasonixError's hint, adds one to a bare usage error; anything else is an unexpected failure (exit 1)", () => {
  const own = new ReasonixError("config.parse", "Cannot read x.toml", { hint: "Fix line 3" });
  assert.deepEqual(reported(own), {
    code: 2,
    stderr: "error: Cannot read x.toml\nhint: Fix line 3\n",
    json: [],
  });
  const usage = reported(new ReasonixError("usage.invalid_value", '--n must be a positive integer, got "x"'));
  assert.equal(
    usage.stderr,
    `error: --n must be a positive integer, got "x"\nhint: Run "demo --help" for the options\n`,
  );
  const internal = reported(new TypeError("boom\x1b]0;title\x07"));
  assert.deepEqual([internal.code, internal.stderr], [1, "error: Unexpected failure: boom\n"]);
  assert.equal(reported(new ReasonixError("provider.network", "Cannot connect")).code, 3);
});

Deno.test("reportError() sends the failure to the JSON writer instead of stderr when there is one", () => {
  const out = reported(new ReasonixError("usage.bad_dir", "Cannot use x"), true);
  assert.deepEqual(out, {
    code: 2,
    stderr: "",
    json: [{ code: "usage.bad_dir", message: "Cannot use x", hint: 'Run "demo --help" for the options' }],
  });
  assert.equal(reported(new Deno.errors.BrokenPipe("gone")).code, 141);
  assert.equal(exitCodeFor("turn.interrupted"), 130);
});
