/**
 * A prompt-injected model (or a tool result) printing terminal escape sequences through the real
 * `reasonix run`: text, `-p` and `--show-thinking` output carry none of them, JSON output carries the
 * exact text, escaped.
 */
import assert from "node:assert/strict";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

/** ESC, BEL, every other C0 control but newline and tab, DEL, C1 (8-bit CSI among them), bidi controls. */
// deno-lint-ignore no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const ANSWER = [
  "Done.\x1b]52;c;SGVsbG8=\x07 Title\x1b]0;PWNED\x07 set.",
  "\x1b[2J\x1b[Hcleared \x9b31mred\x9b0m",
  "access \u202elevel\u202c ok 你好 😀",
].join("\n");
const REASONING = "Thinking\x1b]2;THOUGHT\x07 hard\x1b[1A\x1b[2K";
const MISSING = "gone\x1b]0;PWNED\x07\x1b[2J.txt";
const COMMAND = "printf 'out\\033]52;c;SGVsbG8=\\a\\033]0;PWNED\\007\\n'; exit 3";

function script(): ScriptedReply[] {
  return [
    {
      reasoning: REASONING,
      toolCalls: [
        { name: "bash", arguments: JSON.stringify({ command: `${COMMAND} # \x9b2J\u202e` }) },
        { name: "read_file", arguments: JSON.stringify({ path: MISSING }) },
      ],
    },
    { reasoning: REASONING, content: ANSWER },
  ];
}

async function run(args: string[], stdin?: string) {
  const sim = await DeepSeekSim.start({ script: script() });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  try {
    if (stdin !== undefined) return await runCli(args, { home, cwd: ws, stdin });
    return await runCli(["run", "--yolo", ...args, "say something"], { home, cwd: ws });
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

function assertSafe(text: string, what: string): void {
  const match = UNSAFE.exec(text);
  assert.equal(
    match,
    null,
    `${what} holds U+${match?.[0].charCodeAt(0).toString(16)}: ${JSON.stringify(text)}`,
  );
}

Deno.test("reasonix run text output: no escape sequence from the answer, reasoning or a tool result reaches stdout or stderr", async () => {
  const result = await run(["--show-thinking"]);
  assert.equal(result.code, 0, result.stderr);
  assertSafe(result.stdout, "stdout");
  assertSafe(result.stderr, "stderr");
  assert.equal(
    result.stdout,
    "Done. Title set.\ncleared red\naccess level ok 你好 😀\n",
    "stdout: the answer alone",
  );
  assert.match(result.stderr, /Thinking hard/);
  assert.match(result.stderr, /✗ read_file: .*gone.*\.txt/, "a failed tool's output shows, cleaned");
  assert.match(result.stderr, /-> bash .*<U\+009B>2J<U\+202E>/, "the command shows its escapes visibly");
  assert.match(result.stderr, /✗ bash printf .* → exit 3, 1 line\n/, "its outcome too");
});

Deno.test("reasonix run -p prints only the answer, without its escape sequences", async () => {
  const result = await run(["-p"]);
  assert.equal(result.code, 0, result.stderr);
  assertSafe(result.stdout, "stdout");
  assert.equal(result.stdout, "Done. Title set.\ncleared red\naccess level ok 你好 😀\n");
});

Deno.test("reasonix run --output-format json keeps the exact answer, escaped as JSON", async () => {
  const result = await run(["--output-format", "json"]);
  assert.equal(result.code, 0, result.stderr);
  assertSafe(result.stdout, "stdout");
  assert.equal(JSON.parse(result.stdout).result, ANSWER);
});

Deno.test("reasonix run --output-format stream-json keeps the exact deltas and tool output, escaped as JSON", async () => {
  const result = await run(["--output-format", "stream-json"]);
  assert.equal(result.code, 0, result.stderr);
  assertSafe(result.stdout, "stdout");
  const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const text = events.filter((event) => event.type === "text").map((event) => event.text).join("");
  assert.equal(text, ANSWER);
  const tool = events.find((event) => event.type === "tool_result");
  assert.ok(tool.output.includes("out\x1b]52;c;SGVsbG8=\x07"), tool.output);
});

Deno.test("reasonix with stdout piped (line mode) prints the answer and tool lines without escapes", async () => {
  const result = await run(["--yolo"], "say something\n");
  assert.equal(result.code, 0, result.stderr);
  assertSafe(result.stdout, "stdout");
  assertSafe(result.stderr, "stderr");
  assert.match(result.stdout, /Done\. Title set\.\ncleared red\naccess level ok 你好 😀/);
  assert.match(result.stdout, /· read_file gone␛\]0;PWNED␇␛\[2J\.txt/);
});
