/**
 * @module
 * The one router for what a person types, for every face: a slash command (or its shorthand, `#note`)
 * runs here and never reaches the model, and its answer reaches every face as `command_output` events;
 * anything else is a model turn.
 */
import type { CommandContext, CommandHost, CommandRegistry, ExpandedTurn } from "./commands/registry.ts";
import { unknownMessage } from "./commands/registry.ts";
import type { ReasonixEvent } from "./events.ts";
import type { TurnOutcome } from "./turn_outcome.ts";
import type { TurnOptions } from "./turn_attachments.ts";
import { errorFields, errorText } from "../lib/errors.ts";
import { ReasonixError } from "../lib/errors.ts";
import { t } from "../lib/i18n/mod.ts";

export type SubmitResult =
  /** A slash command ran; `output` is what it answered, in order (also sent as events). */
  | { kind: "command"; command: string; output: string[]; error?: { code: string; message: string } }
  /** `/name` is no command: nothing ran; `output` names the nearest commands. */
  | { kind: "unknown"; command: string; output: string[] }
  | { kind: "turn"; outcome: TurnOutcome };

/** What only a face can do for a command: quit, wipe its screen, display settings, clipboard, input box. */
export type FaceHooks = Partial<Omit<CommandContext, "host" | "print" | "printDiff">>;

export interface SubmitTarget {
  host: CommandHost;
  commands: CommandRegistry;
  runTurn(text: string, options?: TurnOptions): Promise<TurnOutcome>;
  emit(event: ReasonixEvent): void;
  /** A turn is running: commands marked `idleOnly` are refused. */
  busy?(): boolean;
}

export async function submitInput(
  target: SubmitTarget,
  input: string,
  face: FaceHooks = {},
): Promise<SubmitResult> {
  let resolution = target.commands.resolve(input);
  // `/mcp__server__prompt` typed before its server finished starting: wait for that server's prompts.
  if (resolution.kind === "unknown" && await target.commands.load(resolution.name)) {
    resolution = target.commands.resolve(input);
  }
  if (resolution.kind === "text") return { kind: "turn", outcome: await target.runTurn(input) };
  const command = resolution.kind === "command" ? resolution.command.name : resolution.name;
  const output: string[] = [];
  const answer = (format: "text" | "diff") => (text: string) => {
    output.push(text);
    target.emit({ type: "command_output", command, text, format });
  };
  if (resolution.kind === "unknown") {
    answer("text")(unknownMessage(resolution.name, resolution.suggestions));
    return { kind: "unknown", command, output };
  }
  if (resolution.command.idleOnly && target.busy?.()) {
    throw new ReasonixError("session.busy", t("session.busy"));
  }
  const ctx: CommandContext = {
    quit: () => {},
    ...face,
    host: target.host,
    print: answer("text"),
    printDiff: answer("diff"),
  };
  const { expand } = resolution.command;
  if (expand !== undefined) {
    let expanded: string | ExpandedTurn;
    try {
      expanded = await expand.call(resolution.command, ctx, resolution.args);
    } catch (error) {
      const fields = errorFields(error);
      answer("text")(errorText(fields).trimEnd());
      return { kind: "command", command, output, error: { code: fields.code, message: fields.message } };
    }
    // A server wrote a plain text (an MCP prompt): its `@` mentions are not read.
    const turn = typeof expanded === "string" ? { text: expanded, options: { literal: true } } : expanded;
    return { kind: "turn", outcome: await target.runTurn(turn.text, turn.options) };
  }
  await resolution.command.run(ctx, resolution.args);
  return { kind: "command", command, output };
}
