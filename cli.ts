/**
 * @module
 * argv → frontends, loaded by main.ts for everything but `--version`. With main.ts the only place that
 * sets the exit status (scripts/check_layers.ts enforces it): a command throws, and `reportError`
 * (src/frontends/cli/report_error.ts) turns what it threw into text or the run's JSON result and a status;
 * a failure already shown (a failed turn) comes back as its error code.
 */
import { Command, Option } from "commander";
import { VERSION } from "./src/lib/version.ts";
import { launchDirectory } from "./src/config/paths.ts";
import { versionCommand } from "./src/frontends/cli/version_cmd.ts";
import { upgradeCommand } from "./src/frontends/cli/upgrade_cmd.ts";
import { completionCommand } from "./src/frontends/cli/completion_cmd.ts";
import type { ToolSpec } from "./src/tool/tool.ts";
import { sessionCommand } from "./src/frontends/cli/session_command.ts";
import { subagentCommand } from "./src/frontends/cli/subagent_cmd.ts";
import { mcpCommand } from "./src/frontends/cli/mcp_command.ts";
import { looksLikeCommand, unknownCommandError } from "./src/frontends/cli/unknown_command.ts";
import { normaliseArgs } from "./src/frontends/cli/argv.ts";
import { type ErrorFields, ReasonixError } from "./src/lib/errors.ts";
import { readTaskStream } from "./src/frontends/run/task_input.ts";
import { exitCodeFor, reportError } from "./src/frontends/cli/report_error.ts";
import { wholeNumber } from "./src/frontends/cli/option_values.ts";
import { serveCommand } from "./src/frontends/serve/command.ts";
import { reviewCommand, startReview } from "./src/frontends/run/review_command.ts";
import { addProfileRunCommands } from "./src/frontends/run/subagent_command.ts";
import { runFlags } from "./src/config/run_flags.ts";
import { writeAll } from "./src/lib/write_all.ts";
import { failureResult, runDoneLine } from "./src/frontends/run/result.ts";
import { terminalSafeJson } from "./src/lib/terminal_text.ts";

/** What a program that embeds the CLI may add (tests use it for fixture tools). */
export interface Embedding {
  extraTools?: readonly ToolSpec[];
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
    .option(
      "--max-steps <n>",
      "cap on tool rounds (0 = automatic)",
      wholeNumber("--max-steps", " (0 = automatic)"),
    )
    .option("--dir <path>", "workspace directory (default: the current directory)")
    .option("--add-dir <path>", "extra writable directory (repeatable)", collect, [])
    .option(
      "--permission-mode <mode>",
      "ask (default: writes and bash refused headless), auto, yolo or plan (nothing written; the plan is the result)",
    )
    .option("--yolo", "allow every tool call without asking (same as --permission-mode yolo)")
    .option("--allowed-tools <rules>", "allow rules for this run, comma or space separated", collectRules, [])
    .addOption(new Option("--allowedTools <rules>").hideHelp().argParser(collectRules).default([]))
    .option("--trust-project-mcp", "start the project's MCP servers for this run without a recorded approval")
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
    .option("--goal <objective>", "goal mode: work on the objective turn after turn until the goal ends")
    .action(async (words: string[], opts: Record<string, unknown>) => {
      Deno.exitCode = exitCodeFor(await startRun(words, opts, embedding));
    });
}

async function readTask(words: string[]): Promise<string> {
  if (words.length > 0) return words.join(" ");
  if (Deno.stdin.isTerminal()) return "";
  return (await readTaskStream(Deno.stdin.readable)).trim();
}

async function startRun(
  words: string[],
  opts: Record<string, unknown>,
  embedding: Embedding,
): Promise<string | null> {
  if (opts.goal !== undefined && words.length > 0) {
    throw new ReasonixError(
      "usage.conflicting_options",
      "Cannot combine --goal with a task: the goal is the task",
    );
  }
  const task = opts.goal === undefined ? await readTask(words) : String(opts.goal).trim();
  if (!task) {
    throw new ReasonixError("usage.no_task", "No task: give it as arguments or on stdin", {
      hint: "usage: reasonix run [options] <task>  (or pipe the task on stdin)",
    });
  }
  checkPermissionFlags(opts);
  if (opts.eventsJsonl && opts.outputFormat !== "text") {
    throw new ReasonixError(
      "usage.conflicting_options",
      "Cannot combine --events-jsonl with --output-format",
    );
  }
  const { runHeadless } = await import("./src/frontends/run/run.ts");
  const { terminalIo } = await import("./src/frontends/run/terminal_io.ts");
  const report = await runHeadless({
    task,
    ...(opts.goal !== undefined ? { goal: true } : {}),
    boot: {
      cwd: launchDirectory(),
      ...(opts.dir ? { dir: String(opts.dir) } : {}),
      flags: runFlags(opts),
      ...(opts.resume ? { resume: { kind: "query", query: String(opts.resume) } } : {}),
      ...(!opts.resume && opts.continue ? { resume: { kind: "latest" } } : {}),
      ...(embedding.extraTools ? { extraTools: embedding.extraTools } : {}),
      ...(opts.trustProjectMcp ? { trustProjectMcp: true } : {}),
    },
    outputFormat: opts.outputFormat as "text" | "json" | "stream-json",
    eventsJsonl: Boolean(opts.eventsJsonl),
    print: Boolean(opts.print),
    showThinking: Boolean(opts.showThinking),
    ...(opts.trajectory ? { trajectory: String(opts.trajectory) } : {}),
    ...(opts.metrics ? { metrics: String(opts.metrics) } : {}),
    ...terminalIo(),
  });
  return report.errorCode;
}

function checkPermissionFlags(opts: Record<string, unknown>): void {
  if (opts.yolo && opts.permissionMode) {
    throw new ReasonixError("usage.conflicting_options", "Cannot combine --yolo with --permission-mode");
  }
}

function permissionCommands(program: Command): void {
  program.command("permission").description("Understand the permission policy")
    .command("explain").description("Why a bash command would be allowed, asked about or denied")
    .argument("<command...>", `the command line, after "--"`)
    .option("--mode <mode>", "ask, auto, yolo or plan (default: the configured mode)")
    .option("--headless", "as in `reasonix run`, where nobody can approve")
    .option("--allow <rule>", "an extra allow rule (repeatable)", collect, [])
    .option("--ask <rule>", "an extra ask rule (repeatable)", collect, [])
    .option("--deny <rule>", "an extra deny rule (repeatable)", collect, [])
    .option("--allow-dynamic-bash", "as [permissions] allow_dynamic_bash = true")
    .option("--json", "one JSON object: decision, tier, rule, reason")
    .option("--dir <path>", "workspace directory")
    .action(async (words: string[], opts: Record<string, unknown>) => {
      const { permissionExplainCmd } = await import("./src/frontends/cli/permission_cmd.ts");
      await permissionExplainCmd(words, opts);
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
      await admin.configGetCmd(key, opts);
    });
  config.command("set").argument("<key>").argument("<value>")
    .option("--global", "change <home>/config.toml instead of ./reasonix.toml")
    .option("--dir <path>", "workspace directory")
    .action(async (key: string, value: string, opts: { global?: boolean; dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      await admin.configSetCmd(key, value, opts);
    });
  config.command("compact-ratio").argument("[value]", "0.65-0.85 (or 65-85)")
    .description("Print or set agent.compact_ratio (your config; ./reasonix.toml with --local)")
    .option("--local", "change ./reasonix.toml instead of <home>/config.toml")
    .option("--dir <path>", "workspace directory")
    .action(async (value: string | undefined, opts: { local?: boolean; dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      await admin.compactRatioCmd(value, opts);
    });
  config.command("path").description("Print the config files that apply here")
    .option("--dir <path>", "workspace directory")
    .action(async (opts: { dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      await admin.configPathCmd(opts);
    });
  program.command("trust-key").description(
    "Allow a provider declared in ./reasonix.toml to receive its API key",
  )
    .argument("<provider>").option("--dir <path>", "workspace directory")
    .action(async (provider: string, opts: { dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      await admin.trustKeyCmd(provider, opts);
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
      await trustCmd(opts, confirmIo());
    });
  program.addCommand(mcpCommand(confirmIo()));
  program.addCommand(sessionCommand());
  program.addCommand(addProfileRunCommands(subagentCommand()));
  permissionCommands(program);
  program.command("doctor").description("Check what protects tool calls here: sandbox, temp dir, fence")
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (opts: { json?: boolean; dir?: string }) => {
      const { doctorCmd } = await import("./src/frontends/cli/doctor_cmd.ts");
      await doctorCmd(opts);
    });
  program.command("cache").description("Understand the provider's prefix cache")
    .command("explain").description("Per request of a session: cache hits, and where a miss began")
    .argument("[session]", "session id, unique id prefix or path (default: the latest here)")
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (session: string | undefined, opts: { json?: boolean; dir?: string }) => {
      const admin = await import("./src/frontends/cli/admin_cmd.ts");
      await admin.cacheExplainCmd(session, opts);
    });
}

/** How `trust` commands ask: in a terminal with the TUI's prompt, otherwise they need `--yes`. */
function confirmIo() {
  return {
    interactive: Deno.stdin.isTerminal(),
    confirm: async (message: string) =>
      (await import("./src/frontends/tui/trust_confirm.ts")).confirmTrust(message),
  };
}

function acpCommand(embedding: Embedding): Command {
  return new Command("acp")
    .description("Serve the Agent Client Protocol on stdio, for editors (Zed and others)")
    .option("--model <ref>", "provider name, model name, or provider/model")
    .option("--effort <level>", "auto, disabled, low, high or max")
    .option("--permission-mode <mode>", "ask (default), auto, yolo or plan")
    .option("--yolo", "allow every tool call without asking (same as --permission-mode yolo)")
    .option("--add-dir <path>", "extra writable directory (repeatable)", collect, [])
    .option("--dir <path>", "where sessions are listed (default: the current directory)")
    .action(async (opts: Record<string, unknown>) => {
      Deno.exitCode = exitCodeFor(await startAcp(opts, embedding));
    });
}

async function startAcp(opts: Record<string, unknown>, embedding: Embedding): Promise<string | null> {
  checkPermissionFlags(opts);
  const { runAcp } = await import("./src/frontends/acp/mod.ts");
  const { resolve } = await import("node:path");
  return await runAcp({
    cwd: resolve(launchDirectory(), opts.dir ? String(opts.dir) : "."),
    boot: {
      flags: { ...runFlags(opts), allowedTools: [] },
      ...(embedding.extraTools ? { extraTools: embedding.extraTools } : {}),
    },
  });
}

function setupCommand(): Command {
  return new Command("setup").description("Pick a model, store its API key and set it as your default")
    .argument("[path]", "workspace directory (default: the current directory)")
    .option("--project", "set default_model in <path>/reasonix.toml instead of your own config")
    .action(async (path: string | undefined, options: { project?: boolean }) => {
      const { setupCmd } = await import("./src/frontends/tui/setup/command.ts");
      Deno.exitCode = exitCodeFor(await setupCmd(path, options.project === true));
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
    .option("--permission-mode <mode>", "ask (default), auto, yolo or plan")
    .option("--yolo", "allow every tool call without asking (same as --permission-mode yolo)")
    .option("--add-dir <path>", "extra writable directory (repeatable)", collect, [])
    .option("--dir <path>", "workspace directory (default: the current directory)")
    .option("--acp", "serve the Agent Client Protocol on stdio instead (as `reasonix acp`)");
}

async function startTui(
  opts: Record<string, unknown>,
  embedding: Embedding,
  firstPrompt: string | null,
): Promise<string | null> {
  checkPermissionFlags(opts);
  if (firstPrompt && opts.resume === true) {
    throw new ReasonixError("usage.conflicting_options", "Cannot combine the -r picker with a prompt");
  }
  const lineMode = !Deno.stdout.isTerminal();
  // The input box on screen before the TUI's modules load (src/frontends/tui/boot_frame.ts).
  const frame = lineMode ? undefined : (await import("./src/frontends/tui/boot_frame.ts")).paintEarlyFrame();
  const { runTui } = await import("./src/frontends/tui/mod.ts").catch((error) => {
    frame?.remove();
    throw error;
  });
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
    lineMode,
    pickSession: opts.resume === true,
    ...(frame ? { frame } : {}),
    ...(firstPrompt ? { firstPrompt } : {}),
    write: (text) => writeAll(Deno.stdout, encoder.encode(text)),
  });
}

export function buildProgram(embedding: Embedding = {}, argv: readonly string[] = []): Command {
  const program = new Command("reasonix")
    .description("Reasonix: a DeepSeek-native coding agent for the terminal")
    .version(`reasonix v${VERSION}`, "-v, --version", "print the version")
    .exitOverride();
  program.addCommand(runCommand(embedding));
  program.addCommand(versionCommand());
  program.addCommand(upgradeCommand());
  program.addCommand(completionCommand());
  program.addCommand(setupCommand());
  program.addCommand(serveCommand(embedding, (code) => void (Deno.exitCode = exitCodeFor(code))));
  program.addCommand(
    reviewCommand().action(async (opts: Record<string, unknown>) => {
      Deno.exitCode = exitCodeFor(await startReview(opts));
    }),
  );
  program.addCommand(acpCommand(embedding));
  adminCommands(program);
  program.helpCommand("help [command]", "print help for a command");
  const encoder = new TextEncoder();
  applyToAll(program, (command) =>
    command.exitOverride().showSuggestionAfterError().configureOutput({
      writeOut: (text) => writeAll(Deno.stdout, encoder.encode(text)),
      writeErr: (text) => writeAll(Deno.stderr, encoder.encode(text)),
      // Commander's own messages are reported by reportError, with the rest.
      outputError: () => {},
    }));
  // Operands are a first prompt; one bare word is a misspelt command unless it follows `--`.
  tuiOptions(program).allowExcessArguments().action(async (opts: Record<string, unknown>) => {
    if (opts.acp) return void (Deno.exitCode = exitCodeFor(await startAcp(opts, embedding)));
    const prompt = firstPrompt(program, argv.includes("--"));
    Deno.exitCode = exitCodeFor(await startTui(opts, embedding, prompt));
  });
  return program;
}

/**
 * `reasonix "fix the failing test"` or `reasonix -- word`; a single word alone, or words led by a near
 * miss of a command (`reasonix sesion list`), are a mistyped command.
 */
function firstPrompt(program: Command, afterDashes: boolean): string | null {
  const words = program.args;
  if (words.length === 0) return null;
  const commands = program.commands.map((c) => c.name());
  const bareWord = words.length === 1 && !/\s/.test(words[0]!);
  if (!afterDashes && (bareWord || (words.length > 1 && looksLikeCommand(words[0]!, commands)))) {
    throw unknownCommandError(words[0]!, commands);
  }
  return words.join(" ");
}

function applyToAll(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyToAll(sub, apply);
}

/**
 * Called by main.ts once it has decided the Deno fence (src/frontends/cli/fence.ts) for this process:
 * `fence` gives that decision again, here, so a failure is reported as any other.
 */
export async function main(
  args: string[],
  embedding: Embedding,
  fence: () => Promise<number | null>,
): Promise<void> {
  const started = performance.now();
  const argv = normaliseArgs(args);
  const program = buildProgram(embedding, argv);
  let current = program;
  applyToAll(program, (command) => command.hook("preSubcommand", (_, sub) => void (current = sub)));
  try {
    const fenced = await fence();
    if (fenced !== null) {
      Deno.exitCode = fenced;
      return;
    }
    checkHelpTopic(program, argv);
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    const encoder = new TextEncoder();
    Deno.exitCode = reportError(error, {
      writeError: (text) => writeAll(Deno.stderr, encoder.encode(text)),
      ...jsonFailure(argv, started),
    }, `${commandPath(current)} --help`);
  }
}

/** `reasonix help frobnicate` is the same usage error as `reasonix frobnicate` (commander prints the help). */
function checkHelpTopic(program: Command, argv: string[]): void {
  const [first, topic] = argv;
  if (first !== "help" || topic === undefined || topic.startsWith("-")) return;
  if (program.commands.some((c) => c.name() === topic || c.aliases().includes(topic))) return;
  throw unknownCommandError(topic, program.commands.map((c) => c.name()));
}

function commandPath(command: Command): string {
  return command.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name();
}

/**
 * `run` with `--output-format json|stream-json` or `--events-jsonl` promises JSON on stdout, so a failure,
 * even a usage error found before the options were parsed, is told there as the run result.
 */
function jsonFailure(argv: string[], started: number): { writeJson?: (fields: ErrorFields) => void } {
  if (argv[0] !== "run" && argv[0] !== "review") return {};
  const end = argv.indexOf("--");
  const options = argv.slice(1, end < 0 ? undefined : end);
  const events = options.includes("--events-jsonl");
  const format = argv[0] === "review" && options.includes("--json")
    ? "json"
    : lastValue(options, "--output-format");
  if (!events && format !== "json" && format !== "stream-json") return {};
  return {
    writeJson(fields) {
      const result = failureResult(fields, Math.round(performance.now() - started));
      const line = terminalSafeJson(JSON.stringify(events ? runDoneLine(result) : result)) + "\n";
      writeAll(Deno.stdout, new TextEncoder().encode(line));
    },
  };
}

function lastValue(options: string[], name: string): string | undefined {
  let value: string | undefined;
  options.forEach((option, i) => {
    if (option === name) value = options[i + 1];
    else if (option.startsWith(`${name}=`)) value = option.slice(name.length + 1);
  });
  return value;
}
