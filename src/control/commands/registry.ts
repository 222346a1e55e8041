/**
 * @module
 * The one table of slash commands. Dispatch, completion and `/help` all read it, and an unknown
 * `/word` is answered here with the nearest names so it never reaches the model.
 */
import { editDistance } from "../../lib/edit_distance.ts";
import type { ApprovalPort, SessionInfo } from "../ports.ts";
import type { ReasoningLanguage } from "../reasoning_language.ts";
import type { TodoItem } from "../../tool/session_state.ts";
import { type Language, t } from "../../lib/i18n/mod.ts";
import type { ChatMessage, Effort } from "../../provider/provider.ts";
import type { SessionControl } from "../session_switch.ts";
import type { WorkspaceOps } from "../workspace_ops.ts";
import type { RewindOutcome, RewindRequest, RewindState } from "../rewind.ts";
import type { BranchPort } from "../branches.ts";
import type { PlanPort } from "../plan_desk.ts";
import type { GoalPort } from "../goal/desk.ts";
import type { DeliveryPort } from "../delivery/policy.ts";
import type { McpManager } from "../../mcp/manager.ts";
import type { ContextReport } from "../context_report.ts";
import type { TurnOptions } from "../turn_attachments.ts";

/** The Controller operations slash commands use; the Controller itself satisfies it. */
export interface CommandHost extends SessionInfo, ApprovalPort {
  compact(focus?: string): Promise<boolean>;
  /** `/context`; absent in bare test hosts. */
  contextReport?(): ContextReport;
  todos(): TodoItem[];
  setReasoningLanguage(language: ReasoningLanguage): void;
  readonly effort: Effort;
  readonly workspaceRoot: string;
  setEffort(effort: Effort): void;
  history(): readonly ChatMessage[];
  rename(title: string): Promise<void>;
  /** Present when the face can switch sessions (the TUI and line mode). */
  readonly sessions?: SessionControl;
  /** Memory, diff, sandbox and reload of the session's workspace; absent in bare test hosts. */
  readonly workspaceOps?: WorkspaceOps;
  /** Checkpoints and rewind (`/rewind`); absent in bare test hosts. */
  rewindState?(): Promise<RewindState>;
  rewind?(request: RewindRequest): Promise<RewindOutcome>;
  /** Conversation branches (`/branch`, `/switch`, `/tree`); absent in bare test hosts. */
  readonly branches?: BranchPort;
  /** The session's MCP servers (`/mcp`); absent where the session has none. */
  readonly mcp?: McpManager | undefined;
  /** Plan mode's waiting plan and earlier mode (`/plan`); absent in bare test hosts. */
  readonly plans?: PlanPort | undefined;
  /** Goal mode (`/goal`); absent in bare test hosts. */
  readonly goal?: GoalPort;
  /** Verified delivery (`/delivery`); absent in bare test hosts. */
  readonly delivery?: DeliveryPort;
}

/** Session-only display settings a face holds (`/theme`, `/language`, `/verbose`); never written to config. */
export interface DisplayPort {
  setTheme(setting: ThemeChoice): void;
  setLanguage(setting: LanguageChoice): void;
  setVerbose(on: boolean): void;
  state(): {
    theme: "dark" | "light";
    themeSetting: ThemeChoice;
    language: Language;
    languageSetting: LanguageChoice;
    verbose: boolean;
  };
}

export type ThemeChoice = "auto" | "dark" | "light";
export type LanguageChoice = "auto" | Language;

/** What a face hands a command: the session to act on and where to put its answer. */
export interface CommandContext {
  host: CommandHost;
  print(text: string): void;
  /** Columns the face shows command output in (tables wrap to it); absent: DEFAULT_TABLE_WIDTH. */
  width?: number;
  /** Ends the interactive session (the face closes the Controller). */
  quit(): void;
  /** Absent in faces without display settings (line mode); display commands then say so. */
  display?: DisplayPort;
  /** Wipes the visible transcript and the screen (`/clear`). */
  clearScreen?(): void;
  /** Puts text on the terminal's clipboard; resolves to the ways it was sent (`osc52`, `xclip`…). */
  copyToClipboard?(text: string): Promise<string[]>;
  /** Puts text in the input box for the person to edit and send (a rewound turn's prompt). */
  setInput?(text: string): void;
  /** Shows a unified diff coloured (`/diff`); faces without it get the plain text through `print`. */
  printDiff?(patch: string): void;
  /**
   * The person sits at this machine (the TUI, line mode): a command may open their browser and wait for it
   * on a loopback port (`/mcp login`). Absent in `reasonix run`, serve and ACP.
   */
  localBrowser?: boolean;
  /** Lets the person pick one row (`/rewind`, `/resume`): its index, or null when cancelled. */
  choose?(list: ChoiceList): Promise<number | null>;
}

/** A list a face shows for one pick; commands without `choose` print a listing instead. */
export interface ChoiceList {
  title: string;
  /** Lines shown under the title (what a choice will not do, the files it would overwrite). */
  lines?: readonly string[];
  rows: readonly ChoiceRow[];
}

export interface ChoiceRow {
  label: string;
  /** Shown muted after the label, dropped first on a narrow terminal. */
  detail?: string;
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
  /** Input that runs this command without a slash (`#note` → `/remember note`): its args, or null. */
  shorthand?(input: string): string | null;
  /** A line `/help` adds after the list (how to use the shorthand). */
  readonly helpNote?: string;
  /** Refused with `session.busy` while a turn runs (`submit` checks it for every face). */
  readonly idleOnly?: boolean;
  /** Runs at once while a turn runs, not queued behind it, in faces that queue input (the TUI): `/goal pause`. */
  readonly immediate?: boolean;
  /** With these args it runs model turns (`/goal <objective>`): serve starts it like a turn and returns at once. */
  runsTurns?(args: string): boolean;
  /**
   * A command that becomes a user turn (an MCP prompt): the turn's text. It throws (a ReasonixError) when
   * it cannot, and the error is printed instead. `run` is then not called.
   */
  expand?(ctx: CommandContext, args: string): Promise<string | ExpandedTurn>;
}

/** A turn a command expands to with its options (an inline skill: its body pinned to the tail). */
export interface ExpandedTurn {
  text: string;
  options: TurnOptions;
}

/** Commands that come and go with the session (MCP prompts): read again on every lookup. */
export interface CommandSource {
  commands(): readonly SlashCommand[];
  /** Waits for `name` when it may exist but is not known yet (its server is starting); true if it may now. */
  load?(name: string): Promise<boolean>;
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
  #sources: CommandSource[] = [];

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

  /** Adds commands that are looked up on each use rather than registered once. */
  addSource(source: CommandSource): void {
    this.#sources.push(source);
  }

  list(): readonly SlashCommand[] {
    return [...this.#commands, ...this.#dynamic()];
  }

  find(name: string): SlashCommand | undefined {
    const key = name.replace(/^\//, "").toLowerCase();
    return this.#byName.get(key) ?? this.#dynamic().find((command) => command.name.toLowerCase() === key);
  }

  /** Asks the sources to bring in `name` (a prompt of a server still starting); true when one may have. */
  async load(name: string): Promise<boolean> {
    const loaded = await Promise.all(this.#sources.map((source) => source.load?.(name) ?? false));
    return loaded.some(Boolean);
  }

  #dynamic(): SlashCommand[] {
    return this.#sources.flatMap((source) => source.commands()).filter((command) =>
      !this.#byName.has(command.name)
    );
  }

  #names(): string[] {
    return [...this.#byName.keys(), ...this.#dynamic().map((command) => command.name.toLowerCase())];
  }

  /** What the user typed, as a command to run, an unknown command, or text for the model. */
  resolve(input: string): Resolution {
    for (const command of this.#commands) {
      const args = command.shorthand?.(input) ?? null;
      if (args !== null) return { kind: "command", command, args };
    }
    const parsed = parseSlash(input);
    if (!parsed) return { kind: "text" };
    const command = this.find(parsed.name);
    if (command) return { kind: "command", command, args: parsed.args };
    return { kind: "unknown", name: parsed.name, suggestions: this.#nearest(parsed.name) };
  }

  /** Completions for a partial input: command names for `/pe`, argument choices for `/permissions a`. */
  complete(prefix: string): string[] {
    const space = prefix.indexOf(" ");
    if (!prefix.startsWith("/")) return [];
    if (space < 0) {
      const partial = prefix.slice(1).toLowerCase();
      const names = this.#names().filter((name) => name.startsWith(partial));
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
        ? `\n${t("cmd.aliases", { aliases: command.aliases.map((a) => `/${a}`).join(", ") })}`
        : "";
      return `${command.usage}\n${command.summary}${aliases}`;
    }
    const commands = this.list();
    const width = Math.max(...commands.map((command) => command.usage.length));
    const lines = commands.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`);
    const notes = commands.flatMap((command) => command.helpNote ? [`  ${command.helpNote}`] : []);
    return [t("cmd.help_title"), ...lines, ...(notes.length ? ["", ...notes] : [])].join("\n");
  }

  #nearest(name: string): string[] {
    const target = name.replace(/^\//, "").toLowerCase();
    const limit = Math.max(2, Math.floor(target.length / 2));
    return this.#names()
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

/** What an unknown `/name` is answered with: the nearest names, if any. */
export function unknownMessage(name: string, suggestions: readonly string[]): string {
  const hint = suggestions.length ? t("cmd.did_you_mean", { names: suggestions.join(", ") }) : "";
  return t("cmd.unknown", { name, hint });
}

/** `/name args` → its parts; null for text that is not a command (no slash, or a path). */
export function parseSlash(input: string): { name: string; args: string } | null {
  const text = input.trim();
  const match = /^\/([^\s/]*)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return null;
  return { name: match[1]!.toLowerCase(), args: (match[2] ?? "").trim() };
}
