/**
 * @module
 * The one table of slash commands. Dispatch, completion and `/help` all read it, and an unknown
 * `/word` is answered here with the nearest names so it never reaches the model.
 */
import { editDistance } from "../../lib/edit_distance.ts";
import type { ApprovalPort, SessionInfo } from "../ports.ts";
import type { ReasoningLanguage } from "../reasoning_language.ts";
import type { TodoItem } from "../../tool/session_state.ts";

/** The Controller operations slash commands use; the Controller itself satisfies it. */
export interface CommandHost extends SessionInfo, ApprovalPort {
  compact(): Promise<boolean>;
  todos(): TodoItem[];
  setReasoningLanguage(language: ReasoningLanguage): void;
}

/** What a face hands a command: the session to act on and where to put its answer. */
export interface CommandContext {
  host: CommandHost;
  print(text: string): void;
  /** Ends the interactive session (the face closes the Controller). */
  quit(): void;
}

export interface SlashCommand {
  /** Without the leading slash. */
  name: string;
  aliases: readonly string[];
  summary: string;
  /** How to call it, e.g. `/permissions [ask|auto|yolo]`. */
  usage: string;
  run(ctx: CommandContext, args: string): void | Promise<void>;
  /** Completions for the argument (`/permissions a` → `auto`). */
  argumentChoices?: readonly string[];
}

export type Resolution =
  | { kind: "command"; command: SlashCommand; args: string }
  | { kind: "unknown"; name: string; suggestions: string[] }
  /** Not a slash command (plain text, or a path such as `/etc/hosts`): send it to the model. */
  | { kind: "text" };

const MAX_SUGGESTIONS = 3;

export class CommandRegistry {
  #commands: SlashCommand[] = [];
  #byName = new Map<string, SlashCommand>();

  constructor(commands: readonly SlashCommand[] = []) {
    for (const command of commands) this.register(command);
  }

  register(command: SlashCommand): void {
    for (const name of [command.name, ...command.aliases]) {
      if (this.#byName.has(name)) throw new Error(`Slash command /${name} is registered twice`);
      this.#byName.set(name, command);
    }
    this.#commands.push(command);
  }

  list(): readonly SlashCommand[] {
    return this.#commands;
  }

  find(name: string): SlashCommand | undefined {
    return this.#byName.get(name.replace(/^\//, "").toLowerCase());
  }

  /** What the user typed, as a command to run, an unknown command, or text for the model. */
  resolve(input: string): Resolution {
    const parsed = parseSlash(input);
    if (!parsed) return { kind: "text" };
    const command = this.#byName.get(parsed.name);
    if (command) return { kind: "command", command, args: parsed.args };
    return { kind: "unknown", name: parsed.name, suggestions: this.#nearest(parsed.name) };
  }

  /** Completions for a partial input: command names for `/pe`, argument choices for `/permissions a`. */
  complete(prefix: string): string[] {
    const space = prefix.indexOf(" ");
    if (!prefix.startsWith("/")) return [];
    if (space < 0) {
      const partial = prefix.slice(1).toLowerCase();
      const names = [...this.#byName.keys()].filter((name) => name.startsWith(partial));
      return names.sort().map((name) => `/${name}`);
    }
    const command = this.find(prefix.slice(1, space));
    const partial = prefix.slice(space + 1).trimStart();
    const choices = command?.argumentChoices ?? [];
    return choices.filter((choice) => choice.startsWith(partial)).map((choice) =>
      `/${command!.name} ${choice}`
    );
  }

  /** Runs a resolved command, or prints why nothing ran; false when the input was text for the model. */
  async dispatch(ctx: CommandContext, input: string): Promise<boolean> {
    const resolution = this.resolve(input);
    if (resolution.kind === "text") return false;
    if (resolution.kind === "unknown") {
      ctx.print(unknownMessage(resolution.name, resolution.suggestions));
      return true;
    }
    await resolution.command.run(ctx, resolution.args);
    return true;
  }

  /** `/help`: every command, or one command's usage. */
  helpText(name?: string): string {
    if (name) {
      const command = this.find(name);
      if (!command) return unknownMessage(name.replace(/^\//, ""), this.#nearest(name));
      const aliases = command.aliases.length
        ? `\nAliases: ${command.aliases.map((a) => `/${a}`).join(", ")}`
        : "";
      return `${command.usage}\n${command.summary}${aliases}`;
    }
    const width = Math.max(...this.#commands.map((command) => command.usage.length));
    const lines = this.#commands.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`);
    return ["Commands:", ...lines].join("\n");
  }

  #nearest(name: string): string[] {
    const target = name.replace(/^\//, "").toLowerCase();
    const limit = Math.max(2, Math.floor(target.length / 2));
    return [...this.#byName.keys()]
      .map((candidate) => ({ candidate, distance: distanceTo(target, candidate) }))
      .filter((scored) => scored.distance <= limit)
      .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
      .slice(0, MAX_SUGGESTIONS)
      .map((scored) => `/${scored.candidate}`);
  }
}

/** A prefix of a name counts as near (`/perm` → `/permissions`). */
function distanceTo(target: string, candidate: string): number {
  if (target.length > 0 && candidate.startsWith(target)) return 1;
  return editDistance(target, candidate);
}

function unknownMessage(name: string, suggestions: readonly string[]): string {
  const hint = suggestions.length ? ` Did you mean ${suggestions.join(", ")}?` : "";
  return `Unknown command /${name}.${hint} Type /help for the list.`;
}

/** `/name args` → its parts; null for text that is not a command (no slash, or a path). */
export function parseSlash(input: string): { name: string; args: string } | null {
  const text = input.trim();
  const match = /^\/([^\s/]*)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return null;
  return { name: match[1]!.toLowerCase(), args: (match[2] ?? "").trim() };
}
