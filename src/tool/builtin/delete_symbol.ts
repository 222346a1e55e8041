import { z } from "zod";
import {
  type CodeSymbol,
  extractSymbols,
  kindMatches,
  supportsSymbols,
  SYMBOL_KINDS,
} from "../parse/symbols.ts";
import { languageForPath } from "../parse/tree_sitter.ts";
import { type PlannedChange, type ToolContext, ToolError } from "../tool.ts";
import { definePlannedTool } from "../planned.ts";
import { displayPath, resolveWritePath } from "../workspace_paths.ts";
import { encodeText, readTextFile } from "./_text_file.ts";
import { plannedRewrite, type Rewrite, rewriteDiff } from "./_rewrite.ts";

const LISTED_SYMBOLS = 40;

const DESCRIPTION =
  `Delete one declaration (function, class, method, type...) by name from a TypeScript, JavaScript, Go or Python file, with its doc comments and decorators. An ambiguous name needs kind or parent. For other files use delete_range.`;

const parameters = z.object({
  path: z.string().describe("File path, relative to the workspace root"),
  name: z.string().min(1).describe('Declared name, e.g. "parseConfig" or "Server.start"'),
  kind: z.enum(SYMBOL_KINDS).optional().describe('Only match this kind ("type" also matches classes etc.)'),
  parent: z.string().min(1).optional().describe("Class, struct or receiver type of a method"),
});

type DeleteArgs = z.infer<typeof parameters>;

interface DeletePlan extends Rewrite {
  symbol: CodeSymbol;
  /** 1-based, inclusive lines that were cut (with the blank line taken along). */
  lines: [number, number];
}

export const deleteSymbolTool = definePlannedTool({
  name: "delete_symbol",
  description: DESCRIPTION,
  parameters,
  async plan(args, ctx): Promise<PlannedChange> {
    const plan = await planDelete(args, ctx);
    return plannedRewrite(ctx, plan, () => {
      const [from, to] = plan.lines;
      const where = from === to ? `line ${from}` : `lines ${from}-${to}`;
      return `Deleted ${describe(plan.symbol)} from ${plan.shown} (${where})\n${rewriteDiff(plan)}`;
    });
  },
});

async function planDelete(args: DeleteArgs, ctx: ToolContext): Promise<DeletePlan> {
  const abs = await resolveWritePath(ctx.workspace, args.path);
  const shown = displayPath(ctx.workspace, abs);
  const language = languageForPath(abs);
  if (language === null || !supportsSymbols(language)) {
    const what = language === null ? "this file type is not supported" : `${language} is not supported`;
    throw new ToolError(
      "tool.unsupported_language",
      `Cannot delete a symbol in "${shown}": ${what} (TypeScript, JavaScript, Go and Python are); ` +
        "use delete_range or edit_file instead",
    );
  }
  const file = await readTextFile(ctx, abs, shown);
  if (file === null) throw new ToolError("tool.not_found", `Cannot delete from "${shown}": no such file`);
  const symbols = await extractSymbols(file.text, language);
  const symbol = pickSymbol(symbols, args, shown);
  const cut = removalRange(file.text, symbol.start, symbol.end);
  const newText = file.text.slice(0, cut.from) + file.text.slice(cut.to);
  return {
    abs,
    shown,
    symbol,
    oldText: file.text,
    raw: file.raw,
    newText,
    bytes: encodeText(newText, file.encoding, file.bom),
    lines: [lineAt(file.text, cut.from), lineAt(file.text, Math.max(cut.from, cut.to - 1))],
  };
}

function pickSymbol(symbols: CodeSymbol[], args: DeleteArgs, shown: string): CodeSymbol {
  const query = splitQualified(symbols, args);
  const found = symbols.filter((symbol) =>
    symbol.name === query.name && (args.kind === undefined || kindMatches(args.kind, symbol.kind)) &&
    (query.parent === undefined || symbol.parent === query.parent)
  );
  const wanted = `"${args.parent === undefined ? args.name : `${args.parent}.${args.name}`}"`;
  if (found.length === 0) throw notFound(symbols, { wanted, shown, parent: query.parent, kind: args.kind });
  if (found.length > 1) {
    throw new ToolError(
      "tool.symbol_ambiguous",
      `Cannot delete ${wanted} in "${shown}": ${found.length} declarations match (${
        found.map(listed).join(", ")
      }); pass kind or parent to pick one, or use delete_range`,
    );
  }
  const symbol = found[0]!;
  if (symbol.sharedWith !== undefined) {
    const others = symbol.sharedWith.map((name) => `"${name}"`).join(", ");
    throw new ToolError(
      "tool.symbol_shared",
      `Cannot delete ${wanted} in "${shown}": line ${symbol.line} declares it together with ${others}; ` +
        "use edit_file to remove only this name",
    );
  }
  if (symbol.hasError) {
    throw new ToolError(
      "tool.syntax_error",
      `Cannot delete ${wanted} in "${shown}": lines ${symbol.startLine}-${symbol.endLine} do not parse; ` +
        "fix the syntax first or use delete_range",
    );
  }
  return symbol;
}

/** `Server.start` means method `start` of `Server` unless a symbol is literally named so. */
function splitQualified(symbols: CodeSymbol[], args: DeleteArgs): { name: string; parent?: string } {
  const dot = args.name.lastIndexOf(".");
  if (args.parent !== undefined || dot <= 0 || symbols.some((symbol) => symbol.name === args.name)) {
    return { name: args.name, ...(args.parent === undefined ? {} : { parent: args.parent }) };
  }
  return { name: args.name.slice(dot + 1), parent: args.name.slice(0, dot) };
}

function notFound(
  symbols: CodeSymbol[],
  query: { wanted: string; shown: string; parent: string | undefined; kind: string | undefined },
): ToolError {
  const members = symbols.filter((symbol) => query.parent !== undefined && symbol.parent === query.parent);
  const pool = members.length > 0 ? members : symbols.filter((symbol) => symbol.parent === undefined);
  const shownPool = pool.slice(0, LISTED_SYMBOLS).map(listed);
  if (pool.length > LISTED_SYMBOLS) shownPool.push(`… ${pool.length - LISTED_SYMBOLS} more`);
  const label = members.length > 0 ? `members of "${query.parent}"` : "top-level symbols";
  const available = pool.length === 0 ? "the file has no symbols" : `${label}: ${shownPool.join(", ")}`;
  const what = query.kind === undefined ? "no declaration" : `no ${query.kind}`;
  return new ToolError(
    "tool.symbol_not_found",
    `Cannot delete ${query.wanted} in "${query.shown}": ${what} has that name; ${available}`,
  );
}

function listed(symbol: CodeSymbol): string {
  const name = symbol.parent === undefined ? symbol.name : `${symbol.parent}.${symbol.name}`;
  return `${name} (${symbol.kind}, line ${symbol.line})`;
}

function describe(symbol: CodeSymbol): string {
  const of = symbol.parent === undefined ? "" : ` of ${symbol.parent}`;
  return `${symbol.kind} "${symbol.name}"${of}`;
}

/**
 * Widens [start, end) to whole lines when nothing else shares them, then takes one blank line along
 * so the code around the gap keeps its usual spacing: the one after when a blank line (or the file
 * start, or an opening bracket) also precedes the gap, else the one before when the gap ends the
 * file or a block.
 */
function removalRange(text: string, start: number, end: number): { from: number; to: number } {
  const lineStart = startOfLine(text, start);
  const lineEnd = endOfLine(text, end);
  const wholeStart = text.slice(lineStart, start).trim() === "";
  const wholeEnd = text.slice(end, lineEnd).trim() === "";
  if (!wholeStart || !wholeEnd) {
    return { from: wholeStart ? lineStart : start, to: wholeEnd ? lineEnd : skipSpaces(text, end) };
  }
  let from = lineStart;
  let to = lineEnd;
  const previousStart = from === 0 ? 0 : startOfLine(text, from - 1);
  const previous = text.slice(previousStart, from).trim();
  const nextEnd = endOfLine(text, to);
  const next = text.slice(to, nextEnd).trim();
  const previousBlank = from > 0 && previous === "";
  const nextBlank = to < text.length && next === "";
  if (nextBlank && (previousBlank || from === 0 || /[{([:]$/.test(previous))) to = nextEnd;
  else if (previousBlank && (to === text.length || /^[}\])]/.test(next))) from = previousStart;
  return { from, to };
}

function startOfLine(text: string, index: number): number {
  return index === 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
}

function endOfLine(text: string, index: number): number {
  const newline = text.indexOf("\n", index);
  return newline === -1 ? text.length : newline + 1;
}

function skipSpaces(text: string, index: number): number {
  let at = index;
  while (text[at] === " " || text[at] === "\t") at++;
  return at;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) line++;
  return line;
}
