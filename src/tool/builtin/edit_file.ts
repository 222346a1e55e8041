import { z } from "zod";
import { unifiedDiff } from "../../lib/diff/unified.ts";
import { defineTool, type FileChange, type ToolContext, ToolError } from "../tool.ts";
import { displayPath, resolveWritePath } from "../workspace_paths.ts";
import { countLines, encodeText, readTextFile, writeChecked } from "./_text_file.ts";

const DESCRIPTION =
  `Replace text in a file. old_string must match the file exactly, including whitespace and \
indentation, and must occur exactly once unless replace_all is true; include enough surrounding lines to \
make it unique. Line endings (CRLF), the final newline and a BOM are kept. An empty old_string on a file \
that does not exist yet creates it with new_string. Read the file first so old_string is exact.`;

const parameters = z.object({
  path: z.string().describe("File path, relative to the workspace root or absolute inside a writable root"),
  old_string: z.string().describe("Exact text to replace (empty only to create a new file)"),
  new_string: z.string().describe("Replacement text"),
  replace_all: z.boolean().optional().describe(
    "Replace every occurrence instead of exactly one (default false)",
  ),
});

type EditArgs = z.infer<typeof parameters>;

interface EditPlan {
  abs: string;
  shown: string;
  created: boolean;
  /** LF-normalised texts, for the diff. */
  before: string;
  after: string;
  /** What goes to disk. */
  oldText: string | null;
  newText: string;
  bytes: Uint8Array;
  replacements: number;
}

export const editFileTool = defineTool({
  name: "edit_file",
  description: DESCRIPTION,
  parameters,
  readOnly: false,
  async preview(args, ctx): Promise<FileChange> {
    const plan = await planEdit(args, ctx);
    return {
      path: plan.shown,
      kind: plan.created ? "create" : "modify",
      oldText: plan.oldText,
      newText: plan.newText,
    };
  },
  async execute(args, ctx) {
    const plan = await planEdit(args, ctx);
    await writeChecked(ctx.workspace, plan.abs, plan.bytes, plan.shown);
    if (plan.created) return { output: `Created ${plan.shown} (${countLines(plan.newText)} lines)` };
    const diff = unifiedDiff(plan.before, plan.after);
    const noun = plan.replacements === 1 ? "replacement" : "replacements";
    return { output: `Edited ${plan.shown}: ${plan.replacements} ${noun}\n${diff}` };
  },
});

async function planEdit(args: EditArgs, ctx: ToolContext): Promise<EditPlan> {
  if (args.old_string === args.new_string) {
    throw new ToolError("tool.edit_noop", "Cannot edit: old_string and new_string are identical");
  }
  const abs = await resolveWritePath(ctx.workspace, args.path);
  const shown = displayPath(ctx.workspace, abs);
  const file = await readTextFile(abs, shown);
  if (file === null) {
    if (args.old_string !== "") {
      throw new ToolError(
        "tool.not_found",
        `Cannot edit "${shown}": no such file; create it with write_file`,
      );
    }
    const bytes = new TextEncoder().encode(args.new_string);
    const base = { abs, shown, created: true, before: "", oldText: null, replacements: 1 };
    return { ...base, after: args.new_string, newText: args.new_string, bytes };
  }
  const crlf = isUniformCrlf(file.text);
  const text = crlf ? file.text.replaceAll("\r\n", "\n") : file.text;
  if (args.old_string === "" && text !== "") {
    throw new ToolError(
      "tool.edit_no_match",
      `Cannot edit "${shown}": old_string is empty but the file already has content; give the text to replace`,
    );
  }
  const needle = crlf ? args.old_string.replaceAll("\r\n", "\n") : args.old_string;
  const replacement = crlf ? args.new_string.replaceAll("\r\n", "\n") : args.new_string;
  const { after, replacements } = replaceText(text, needle, replacement, {
    all: args.replace_all ?? false,
    shown,
  });
  const newText = crlf ? after.replaceAll("\n", "\r\n") : after;
  const bytes = encodeText(newText, file.encoding, file.bom);
  return {
    abs,
    shown,
    created: false,
    before: text,
    after,
    oldText: file.text,
    newText,
    bytes,
    replacements,
  };
}

function isUniformCrlf(text: string): boolean {
  return text.includes("\r\n") && !/(^|[^\r])\n/.test(text);
}

function replaceText(
  text: string,
  needle: string,
  replacement: string,
  options: { all: boolean; shown: string },
): { after: string; replacements: number } {
  if (needle === "") return { after: replacement, replacements: 1 };
  const positions = findAll(text, needle);
  if (positions.length === 0) throw noMatch(text, needle, options.shown);
  if (positions.length > 1 && !options.all) {
    const lines = positions.slice(0, 20).map((at) => lineAt(text, at));
    const more = positions.length > 20 ? ", …" : "";
    throw new ToolError(
      "tool.edit_ambiguous",
      `Cannot edit "${options.shown}": old_string occurs ${positions.length} times (at lines ${
        lines.join(", ")
      }${more}); include more surrounding context to make it unique, or set replace_all to true`,
    );
  }
  if (options.all) return { after: text.split(needle).join(replacement), replacements: positions.length };
  const at = positions[0]!;
  return { after: text.slice(0, at) + replacement + text.slice(at + needle.length), replacements: 1 };
}

function findAll(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) line++;
  return line;
}

function noMatch(text: string, needle: string, shown: string): ToolError {
  const near = looseMatchLine(text, needle);
  const hint = near === null
    ? "; check whitespace and indentation, and read the file again to copy the exact text"
    : `; a match that differs only in whitespace or indentation starts at line ${near}, copy it exactly`;
  return new ToolError("tool.edit_no_match", `Cannot edit "${shown}": old_string was not found${hint}`);
}

/** Line number where `needle` matches once whitespace runs are collapsed and lines trimmed. */
function looseMatchLine(text: string, needle: string): number | null {
  const squash = (line: string) => line.trim().replace(/\s+/g, " ");
  const hay = text.split("\n").map(squash);
  const wanted = needle.replaceAll("\r\n", "\n").split("\n").map(squash);
  while (wanted.length > 0 && wanted[0] === "") wanted.shift();
  while (wanted.length > 0 && wanted.at(-1) === "") wanted.pop();
  if (wanted.length === 0) return null;
  for (let start = 0; start + wanted.length <= hay.length; start++) {
    if (wanted.every((line, j) => linesMatch(hay[start + j]!, line, j, wanted.length))) return start + 1;
  }
  return null;
}

function linesMatch(hay: string, wanted: string, index: number, count: number): boolean {
  if (count === 1) return hay.includes(wanted);
  if (index === 0) return hay.endsWith(wanted);
  if (index === count - 1) return hay.startsWith(wanted);
  return hay === wanted;
}
