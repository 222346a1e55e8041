/**
 * @module
 * argv → frontends. The only place that picks exit codes and calls Deno.exit.
 */
import { Command, CommanderError, Option } from "commander";
import { VERSION } from "./src/lib/version.ts";
import { launchDirectory } from "./src/config/paths.ts";
import { versionCommand } from "./src/frontends/cli/version_cmd.ts";
import { upgradeCommand } from "./src/frontends/cli/upgrade_cmd.ts";
import { completionCommand } from "./src/frontends/cli/completion_cmd.ts";
import { maybeFence } from "./src/frontends/cli/fence.ts";
import type { ToolSpec } from "./src/tool/tool.ts";
import { sessionRewindCommands } from "./src/frontends/cli/session_rewind_cmd.ts";
import { unknownCommandError } from "./src/frontends/cli/unknown_command.ts";
import { isBrokenPipe, ReasonixError } from "./src/lib/errors.ts";

/** What a program that embeds the CLI may add (tests use it for fixture tools). */
export interface Embedding {
  extraTools?: readonly ToolSpec[];
}

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
  "provider.truncated": 3,
  "turn.interrupted": 130,
  "turn.terminated": 143,
  "turn.hangup": 129,
  // 128 + SIGPIPE, as for any Unix tool whose reader left (`reasonix --help | head -1`).
  "output.broken_pipe": 141,
};

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

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * `--allowed-tools "Bash(npm test:*),Edit(docs/**)"`: commas and spaces separate rules outside (),
 * and a `Bash=<literal>` rule takes the rest of the value as written.
 */
function collectRules(value: string, previous: string[]): string[] {
  const rules: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of value) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    const literal = /^\s*[A-Za-z_]+=/.test(current);
    if (depth === 0 && !literal && (char === "," || char === " ")) {
      if (current.trim()) rules.push(current.trim());
      current = "";
    } else current += char;
  }
  if (current.trim()) rules.push(current.trim());
  return [...previous, ...rules];
}

function runCommand(embedding: Embedding): Command {
  return new Command("run")
    .description("Run one task headless and exit")
    .argument("[task...]", "the task (read from stdin when absent)")
    .option("--model <ref>", "provider name, model name, or provider/model")
    .option(
      "--effort <level>",
      "auto, disabled, low, high or max (minimal, medium, xhigh, ultra map to these)",
    )
    .option("--max-steps <n>", "cap on tool rounds (0 = automatic)", parseCount)
    .option("--dir <path>", "workspace directory (default: the current directory)")
    .option("--add-dir <path>", "extra writable directory (repeatable)", collect, [])
    .option("--permission-mode <mode>", "ask (default: writes and bash refused headless), auto or yolo")
    .option("--yolo", "allow every tool call without asking (same as --permission-mode yolo)")
    .option("--allowed-tools <rules>", "allow rules for this run, comma or space separated", collectRules, [])
    .addOption(new Option("--allowedTools <rules>").hideHelp().argParser(collectRules).default([]))
    .addOption(
      new Option("--output-format <format>", "result format").choices(["text", "json", "stream-json"])
        .default("text"),
    )
    .option("--events-jsonl", "print redacted events as JSON lines instead of the output")
    .option("--trajectory <path>", "append every event, with content, as JSON lines to this file")
    .option("--metrics <path>", "write a JSON summary of the run to this file")
    .option("-c, --continue", "continue the latest session of this workspace")
    .option("--resume <id>", "continue the session with this id (or unique id prefix)")
    .option("-p, --print", "print only the final answer")
    .option("--show-thinking", "print the model's reasoning")
    .action(async (words: string[], opts: Record<string, unknown>) => {
      Deno.exitCode = await startRun(words, opts, embedding);
    });
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new CommanderError(2, "usage", `Invalid count "${value}"`);
  return n;
}

async function readTask(words: string[]): Promise<string> {
  if (words.length > 0) return words.join(" ");
  if (Deno.stdin.isTerminal()) return "";
  return (await new Response(Deno.stdin.readable).text()).trim();
}

async function startRun(
  words: string[],
  opts: Record<string, unknown>,
  embedding: Embedding,
): Promise<number> {
  const task = await readTask(words);
  if (!task) return usageError("usage: reasonix run [options] <task>  (or pipe the task on stdin)");
  if (opts.yolo && opts.permissionMode) return usageError("Cannot combine --yolo with --permission-mode");
  if (opts.eventsJsonl && opts.outputFormat !== "text") {
    return usageError("Cannot combine --events-jsonl with --output-format");
  }
  const { runHeadless } = await import("./src/frontends/run/run.ts");
  const { installStopSignals } = await import("./src/frontends/run/stop_signals.ts");
  const encoder = new TextEncoder();
  const report = await runHeadless({
    task,
    boot: {
      cwd: launchDirectory(),
      ...(opts.dir ? { dir: String(opts.dir) } : {}),
      flags: runFlags(opts),
      ...(opts.resume ? { resume: { kind: "query", query: String(opts.resume) } } : {}),
      ...(!opts.resume && opts.continue ? { resume: { kind: "latest" } } : {}),
      ...(embedding.extraTools ? { extraTools: embedding.extraTools } : {}),
    },
    outputFormat: opts.outputFormat as "text" | "json" | "stream-json",
    eventsJsonl: Boolean(opts.eventsJsonl),
    print: Boolean(opts.print),
    showThinking: Boolean(opts.showThinking),
    ...(opts.trajectory ? { trajectory: String(opts.trajectory) } : {}),
    ...(opts.metrics ? { metrics: String(opts.metrics) } : {}),
    write: (text) => writeAll(Deno.stdout, encoder.encode(text)),
    writeError: (text) => writeAll(Deno.stderr, encoder.encode(text)),
    color: Deno.stdout.isTerminal() && !Deno.noColor,
    onInterrupt: installStopSignals,
  });
  return exitCodeFor(report.errorCode);
}

function runFlags(opts: Record<string, unknown>) {
  const mode = opts.yolo ? "yolo" : opts.permissionMode as string | undefined;
  return {
    ...(opts.model ? { model: String(opts.model) } : {}),
    ...(opts.effort ? { effort: String(opts.effort) } : {}),
    ...(opts.maxSteps !== undefined ? { maxSteps: Number(opts.maxSteps) } : {}),
    ...(mode ? { permissionMode: mode } : {}),
    addDirs: opts.addDir as string[],
    allowedTools: opts.allowedTools as string[],
  };
}

function writeAll(target: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += target.writeSync(bytes.subarray(written));
}

function usageError(message: string): number {
  console.error(message);
  return 2;
}

function permissionCommands(program: Command): void {
  program.command("permission").description("Understand the permission policy")
    .command("explain").description("Why a bash command would be allowed, asked about or denied")
    .argument("<command...>", `the command line, after "--"`)
    .option("--mode <mode>", "ask, auto or yolo (default: the configured mode)")
    .option("--headless", "as in `reasonix run`, where nobody can approve")
    .option("--allow <rule>", "an extra allow rule (repeatable)", collect, [])
    .option("--ask <rule>", "an extra ask rule (repeatable)", collect, [])
    .option("--deny <rule>", "an extra deny rule (repeatable)", collect, [])
    .option("--allow-dynamic-bash", "as [permissions] allow_dynamic_bash = true")
    .option("--json", "one JSON object: decision, tier, rule, reason")
    .option("--dir <path>", "workspace directory")
    .action(async (words: string[], opts: Record<string, unknown>) => {
      const { permissionExplainCmd } = await import("./src/frontends/cli/permission_cmd.ts");
      Deno.exitCode = await permissionExplainCmd(words, opts);
    });
}

function adminCommands(program: Command): void {
  const config = program.command("config").description(
    "Read or change configuration without rewriting files",
  );
  config.command("get").argument("<key>", "dotted key, e.g. tools.bash_timeout_seconds")
    .option("--dir <path>", "workspace directory")
    .action(async (key: string, opts: { dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      Deno.exitCode = await admin.configGetCmd(key, opts);
    });
  config.command("set").argument("<key>").argument("<value>")
    .option("--global", "change <home>/config.toml instead of ./reasonix.toml")
    .option("--dir <path>", "workspace directory")
    .action(async (key: string, value: string, opts: { global?: boolean; dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      Deno.exitCode = await admin.configSetCmd(key, value, opts);
    });
  config.command("path").description("Print the config files that apply here")
    .option("--dir <path>", "workspace directory")
    .action(async (opts: { dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      Deno.exitCode = await admin.configPathCmd(opts);
    });
  program.command("trust-key").description(
    "Allow a provider declared in ./reasonix.toml to receive its API key",
  )
    .argument("<provider>").option("--dir <path>", "workspace directory")
    .action(async (provider: string, opts: { dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      Deno.exitCode = await admin.trustKeyCmd(provider, opts);
    });
  program.command("trust").description(
    "Review ./reasonix.toml and let its security-relevant keys apply (until the file changes)",
  )
    .option("--dir <path>", "workspace directory")
    .option("--show", "only show the file's trust status and what trusting it applies")
    .option("--revoke", "forget the approval: the file may only tighten your settings again")
    .option("-y, --yes", "trust without asking (needed when stdin is not a terminal)")
    .action(async (opts: { dir?: string; show?: boolean; revoke?: boolean; yes?: boolean }) => {
      const { trustCmd } = await import("./src/frontends/cli/trust_cmd.ts");
      Deno.exitCode = await trustCmd(opts, {
        interactive: Deno.stdin.isTerminal(),
        confirm: async (message) =>
          (await import("./src/frontends/tui/trust_confirm.ts")).confirmTrust(message),
      });
    });
  sessionCommands(program);
  permissionCommands(program);
  program.command("doctor").description("Check what protects tool calls here: sandbox, temp dir, fence")
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (opts: { json?: boolean; dir?: string }) => {
      const { doctorCmd } = await import("./src/frontends/cli/doctor_cmd.ts");
      Deno.exitCode = await doctorCmd(opts);
    });
  program.command("cache").description("Understand the provider's prefix cache")
    .command("explain").description("Per request of a session: cache hits, and where a miss began")
    .argument("[session]", "session id, unique id prefix or path (default: the latest here)")
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (session: string | undefined, opts: { json?: boolean; dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      Deno.exitCode = await admin.cacheExplainCmd(session, opts);
    });
}

function sessionCommands(program: Command): void {
  const session = program.command("session").description("Inspect stored sessions (redacted)");
  const load = () => import("./src/frontends/cli/session_cmd.ts");
  session.command("list").description("This workspace's sessions, latest activity first")
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (opts: { json?: boolean; dir?: string }) => {
      Deno.exitCode = await (await load()).sessionListCmd(opts);
    });
  session.command("show").description("Print a session's transcript")
    .argument("<session>", `"latest", an id or unique prefix, a path, or a unique title substring`)
    .option("--reasoning", "include the model's reasoning").option("--json", "machine-readable output")
    .option("--dir <path>", "workspace directory")
    .action(async (query: string, opts: { json?: boolean; dir?: string; reasoning?: boolean }) => {
      Deno.exitCode = await (await load()).sessionShowCmd(query, opts);
    });
  session.command("status").description("One session's turns, cost, last turn and writer")
    .argument("[session]", `as for "show" (default: latest)`)
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (query: string | undefined, opts: { json?: boolean; dir?: string }) => {
      Deno.exitCode = await (await load()).sessionStatusCmd(query, opts);
    });
  sessionRewindCommands(session);
}

function setupCommand(): Command {
  return new Command("setup").description("Pick a model, store its API key and write reasonix.toml")
    .argument("[path]", "workspace directory for reasonix.toml (default: the current directory)")
    .action(async (path: string | undefined) => {
      const { setupCmd } = await import("./src/frontends/tui/setup/command.ts");
      Deno.exitCode = await setupCmd(path);
    });
}

/** `reasonix [options]`: the interactive shell. Positional options keep `run --model` for `run`. */
function tuiOptions(program: Command): Command {
  return program.enablePositionalOptions()
    .option("-c, --continue", "continue the latest session of this workspace")
    .option("-r, --resume [query]", "continue a session: a picker, or its id, id prefix or title")
    .option("--model <ref>", "provider name, model name, or provider/model")
    .option(
      "--effort <level>",
      "auto, disabled, low, high or max (minimal, medium, xhigh, ultra map to these)",
    )
    .option("--permission-mode <mode>", "ask (default), auto or yolo")
    .option("--yolo", "allow every tool call without asking (same as --permission-mode yolo)")
    .option("--add-dir <path>", "extra writable directory (repeatable)", collect, [])
    .option("--dir <path>", "workspace directory (default: the current directory)");
}

async function startTui(opts: Record<string, unknown>, embedding: Embedding): Promise<number> {
  if (opts.yolo && opts.permissionMode) return usageError("Cannot combine --yolo with --permission-mode");
  const { runTui } = await import("./src/frontends/tui/mod.ts");
  const encoder = new TextEncoder();
  const query = typeof opts.resume === "string" ? opts.resume : null;
  return await runTui({
    boot: {
      cwd: launchDirectory(),
      ...(opts.dir ? { dir: String(opts.dir) } : {}),
      flags: { ...runFlags(opts), allowedTools: [] },
      ...(query ? { resume: { kind: "query", query } } : {}),
      ...(!query && (opts.resume || opts.continue) ? { resume: { kind: "latest" } } : {}),
      ...(embedding.extraTools ? { extraTools: embedding.extraTools } : {}),
    },
    lineMode: !Deno.stdout.isTerminal(),
    pickSession: opts.resume === true,
    write: (text) => writeAll(Deno.stdout, encoder.encode(text)),
    writeError: (text) => writeAll(Deno.stderr, encoder.encode(text)),
  });
}

export function buildProgram(embedding: Embedding = {}): Command {
  const program = new Command("reasonix")
    .description("Reasonix: a DeepSeek-native coding agent for the terminal")
    .version(`reasonix v${VERSION}`, "-v, --version", "print the version")
    .exitOverride();
  program.addCommand(runCommand(embedding));
  program.addCommand(versionCommand());
  program.addCommand(upgradeCommand());
  program.addCommand(completionCommand());
  program.addCommand(setupCommand());
  adminCommands(program);
  program.helpCommand("help [command]", "print help for a command");
  const encoder = new TextEncoder();
  applyToAll(program, (command) =>
    command.exitOverride().showSuggestionAfterError().configureOutput({
      writeOut: (text) => writeAll(Deno.stdout, encoder.encode(text)),
      writeErr: (text) => writeAll(Deno.stderr, encoder.encode(text)),
    }));
  // The root takes no operands: a word that is not a command is a misspelt or missing one.
  tuiOptions(program).allowExcessArguments().action(async (opts: Record<string, unknown>) => {
    const [word] = program.args;
    if (word !== undefined) throw unknownCommandError(word, program.commands.map((c) => c.name()));
    Deno.exitCode = await startTui(opts, embedding);
  });
  return program;
}

function applyToAll(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyToAll(sub, apply);
}

/** `reasonix -p <task>` is `reasonix run -p <task>`, as in the Go Reasonix. */
function normaliseArgs(args: string[]): string[] {
  if (args[0] === "-p" || args[0] === "--print") return ["run", ...args];
  return args;
}

/** Exported for the compiled entry generated by scripts/compile.ts. */
export async function main(args: string[], embedding: Embedding = {}): Promise<void> {
  try {
    const fenced = await maybeFence(normaliseArgs(args), launchDirectory());
    if (fenced !== null) {
      Deno.exitCode = fenced;
      return;
    }
    await buildProgram(embedding).parseAsync(normaliseArgs(args), { from: "user" });
  } catch (error) {
    Deno.exitCode = reportError(error);
  }
}

/** The one place an error that escaped a command becomes text on stderr and an exit status. */
function reportError(error: unknown): number {
  if (isBrokenPipe(error)) return exitCodeFor("output.broken_pipe");
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  const code = error instanceof ReasonixError ? error.code : "internal";
  try {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof ReasonixError && error.hint) console.error(`hint: ${error.hint}`);
  } catch (printError) {
    if (!isBrokenPipe(printError)) throw printError;
  }
  return exitCodeFor(code);
}

if (import.meta.main) await main(Deno.args);
