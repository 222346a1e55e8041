/**
 * @module
 * MCP prompts as slash commands: `/mcp__<server>__<prompt> [args]`, a command source the registry reads
 * on every lookup, so prompts come with their server and go with it. Arguments are positional in the
 * order the prompt declares them, or `key=value`; a missing required one prints the usage. The prompt's
 * messages become the user turn. Names a server gives that could not be typed are skipped; its
 * descriptions are shown with control characters made visible.
 */
import { escapeControls } from "../lib/terminal_text.ts";
import { ReasonixError } from "../lib/errors.ts";
import { t } from "../lib/i18n/mod.ts";
import type { McpConnection, McpPrompt } from "../mcp/client.ts";
import type { McpManager } from "../mcp/manager.ts";
import type { CommandContext, CommandRegistry, CommandSource, SlashCommand } from "./commands/registry.ts";
import { promptText } from "./mcp_content.ts";

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const SUMMARY_CHARS = 120;

interface Listed {
  prompts: McpPrompt[];
  /** The connection's `promptsVersion` when listed: a later `list_changed` lists again. */
  version: number;
}

/** `registry` with the prompts of the session's servers as commands (`manager` is read on each use). */
export function withMcpPrompts(
  registry: CommandRegistry,
  manager: () => McpManager | undefined,
): CommandRegistry {
  registry.addSource(new McpPromptCommands(manager));
  return registry;
}

/**
 * The prompts of every connected server, listed once per connection and again after the server announces
 * `notifications/prompts/list_changed` (the previous list shows meanwhile); a reconnect lists them anew.
 */
export class McpPromptCommands implements CommandSource {
  readonly #manager: () => McpManager | undefined;
  readonly #listed = new WeakMap<McpConnection, Listed>();
  readonly #listing = new WeakMap<McpConnection, Promise<Listed>>();

  constructor(manager: () => McpManager | undefined) {
    this.#manager = manager;
  }

  commands(): SlashCommand[] {
    const manager = this.#manager();
    if (manager === undefined) return [];
    return manager.status().flatMap(({ name }) => {
      const connection = manager.peek(name);
      if (connection === undefined || !SAFE_NAME.test(name)) return [];
      const listed = this.#listed.get(connection);
      if (listed?.version !== connection.promptsVersion) void this.#list(connection);
      return (listed?.prompts ?? []).filter((prompt) => SAFE_NAME.test(prompt.name)).map((prompt) =>
        promptCommand(name, prompt, connection)
      );
    });
  }

  /** `name` is `mcp__<server>__…` of a configured server: waits for it to connect and lists its prompts. */
  async load(name: string): Promise<boolean> {
    const manager = this.#manager();
    const server = manager?.status().find((s) => name.startsWith(`mcp__${s.name.toLowerCase()}__`))?.name;
    if (manager === undefined || server === undefined) return false;
    try {
      await this.#list(await manager.connection(server));
      return true;
    } catch {
      return false;
    }
  }

  /** The current list: the cached one while no change was announced, else one listing at a time. */
  #list(connection: McpConnection): Promise<Listed> {
    const version = connection.promptsVersion;
    const known = this.#listed.get(connection);
    if (known?.version === version) return Promise.resolve(known);
    const running = this.#listing.get(connection);
    if (running !== undefined) return running;
    const listing = connection.listPrompts().catch(() => [] as McpPrompt[]).then((prompts) => {
      const listed = { prompts, version };
      this.#listed.set(connection, listed);
      this.#listing.delete(connection);
      return listed;
    });
    this.#listing.set(connection, listing);
    return listing;
  }
}

function promptCommand(server: string, prompt: McpPrompt, connection: McpConnection): SlashCommand {
  const args = prompt.arguments ?? [];
  const shown = args.filter((arg) => SAFE_NAME.test(arg.name));
  const usage = [
    `/mcp__${server}__${prompt.name}`,
    ...shown.map((a) => a.required ? `<${a.name}>` : `[${a.name}]`),
  ]
    .join(" ");
  const about = escapeControls(prompt.description ?? prompt.title ?? "").replace(/\s+/g, " ").trim();
  const summary = t(about ? "mcp.prompt_summary_about" : "mcp.prompt_summary", {
    server,
    about: about.slice(0, SUMMARY_CHARS),
  });
  return {
    name: `mcp__${server}__${prompt.name}`,
    aliases: [],
    summary,
    usage,
    run: () => {},
    async expand(_ctx: CommandContext, text: string): Promise<string> {
      const parsed = promptArguments(prompt, text);
      if (typeof parsed === "string") {
        throw new ReasonixError("usage.prompt_arguments", parsed, {
          hint: `usage: ${usage}${argumentLines(prompt)}`,
        });
      }
      return promptText(await connection.getPrompt(prompt.name, parsed));
    },
  };
}

function argumentLines(prompt: McpPrompt): string {
  const lines = (prompt.arguments ?? []).map((arg) => {
    const about = arg.description ? `: ${escapeControls(arg.description).replace(/\s+/g, " ")}` : "";
    return `  ${escapeControls(arg.name)}${arg.required ? " (required)" : ""}${about}`;
  });
  return lines.length ? `\n${lines.join("\n")}` : "";
}

/**
 * The prompt's arguments from what followed the command: `key=value` for a declared name, else the
 * next declared argument in order; the last one takes the rest of the line. A string says what is wrong.
 */
export function promptArguments(prompt: McpPrompt, text: string): Record<string, string> | string {
  const declared = prompt.arguments ?? [];
  const values: Record<string, string> = {};
  const words = splitWords(text);
  const positional: string[] = [];
  for (const word of words) {
    const match = /^([^=\s]+)=([\s\S]*)$/.exec(word);
    if (match && declared.some((arg) => arg.name === match[1])) values[match[1]!] = match[2]!;
    else positional.push(word);
  }
  const open = declared.filter((arg) => !(arg.name in values));
  if (positional.length > 0 && open.length === 0) {
    return `The prompt "${escapeControls(prompt.name)}" takes no more arguments: ${positional.join(" ")}`;
  }
  open.forEach((arg, index) => {
    const last = index === open.length - 1;
    const value = last ? positional.slice(index).join(" ") : positional[index];
    if (value !== undefined && value !== "") values[arg.name] = value;
  });
  const missing = declared.filter((arg) => arg.required && !(arg.name in values)).map((arg) => arg.name);
  if (missing.length > 0) {
    return `Missing required argument ${missing.map((n) => `<${escapeControls(n)}>`).join(", ")}`;
  }
  return values;
}

/** Words split on whitespace; "double" or 'single' quotes keep spaces inside a word (`city="New York"`). */
function splitWords(text: string): string[] {
  const words = text.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [];
  return words.map((word) => word.replace(/"([^"]*)"|'([^']*)'/g, "$1$2"));
}
