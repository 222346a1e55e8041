import { z } from "zod";
import { defineTool, type ToolContext, ToolError } from "../tool.ts";
import { readConfined } from "../confined_fs.ts";
import { displayPath, notFound, resolveReadPath } from "../workspace_paths.ts";
import { describeImage, SNIFF_BYTES, sniffBytes, type TextEncodingName } from "./_sniff.ts";

export const DEFAULT_READ_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
const CHUNK_BYTES = 64 * 1024;

const DESCRIPTION =
  `Read a text file; lines come numbered from 1 as "<n><TAB><text>". Up to 2000 lines by default: page with offset (lines to skip) and limit, as the trailer says. Directories (use ls), images and binary files are refused.`;

const parameters = z.object({
  path: z.string().describe("File path, relative to the workspace root or absolute inside it"),
  offset: z.number().int().min(0).optional().describe("Number of lines to skip before the first shown line"),
  limit: z.number().int().min(1).optional().describe(
    `Maximum number of lines to show (default ${DEFAULT_READ_LIMIT})`,
  ),
});

export const readFileTool = defineTool({
  name: "read_file",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  truncationHint: "read a smaller range with offset and limit",
  async execute(args, ctx) {
    const abs = await resolveReadPath(ctx.workspace, args.path);
    const shown = displayPath(ctx.workspace, abs);
    const bytes = await readBytes(ctx, abs, { input: args.path, shown });
    if (bytes.length === 0) return { output: `File "${shown}" is empty (0 bytes)` };
    const sniff = sniffBytes(bytes.subarray(0, SNIFF_BYTES));
    if (sniff.kind === "image") {
      throw new ToolError("tool.unsupported_file", describeImage(shown, sniff, bytes.length));
    }
    if (sniff.kind === "binary") {
      throw new ToolError(
        "tool.unsupported_file",
        `Cannot read "${shown}": it looks like a binary file (${bytes.length} bytes), not text`,
      );
    }
    const skip = args.offset ?? 0;
    const take = args.limit ?? DEFAULT_READ_LIMIT;
    const scan = scanLines(bytes, sniff.encoding, { skip, take, ctx });
    if (scan.total === 0) return { output: `File "${shown}" is empty (${bytes.length} bytes)` };
    if (skip >= scan.total) {
      throw new ToolError(
        "tool.invalid_offset",
        `Cannot read "${shown}" at offset=${skip}: the file has ${scan.total} lines`,
      );
    }
    const data = {
      kind: "read" as const,
      path: shown,
      lines: scan.lines.length,
      offset: skip,
      totalLines: scan.total,
    };
    return { ...formatWindow(scan, skip), data };
  },
});

/** The file's bytes through the anchored reader, so a swapped directory cannot redirect the read. */
async function readBytes(
  ctx: ToolContext,
  abs: string,
  names: { input: string; shown: string },
): Promise<Uint8Array> {
  let bytes: Uint8Array | null;
  try {
    bytes = await readConfined(ctx, abs);
  } catch (error) {
    if (error instanceof ToolError && error.code === "tool.not_a_file") {
      throw new ToolError(
        "tool.not_a_file",
        `Cannot read "${names.shown}": it is a directory; use ls to list it`,
      );
    }
    if (error instanceof Deno.errors.NotADirectory) bytes = null;
    else throw error;
  }
  if (bytes === null) throw notFound(names.input);
  return bytes;
}

interface Scan {
  lines: string[];
  total: number;
  /** Lines stopped early because the output budget was reached. */
  budgetHit: boolean;
}

interface ScanOptions {
  skip: number;
  take: number;
  ctx: ToolContext;
}

/** Decodes the file once: keeps only the requested window (each line capped) and counts the rest. */
function scanLines(bytes: Uint8Array, encoding: TextEncodingName, options: ScanOptions): Scan {
  const decoder = new TextDecoder(encoding);
  const budget = options.ctx.limits.outputBudgetBytes;
  const scan: Scan = { lines: [], total: 0, budgetHit: false };
  let partial = "";
  let started = false;
  let used = 0;
  const end = options.skip + options.take;
  const finish = () => {
    if (scan.total >= options.skip && scan.total < end && !scan.budgetHit) {
      const line = clipLine(partial);
      used += line.length + 8;
      if (used > budget && scan.lines.length > 0) scan.budgetHit = true;
      else scan.lines.push(line);
    }
    scan.total++;
    partial = "";
    started = false;
  };
  for (let at = 0;; at += CHUNK_BYTES) {
    options.ctx.signal.throwIfAborted();
    const chunk = at < bytes.length ? bytes.subarray(at, at + CHUNK_BYTES) : null;
    const text = chunk === null ? decoder.decode() : decoder.decode(chunk, { stream: true });
    let from = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", from)) {
      keep(text.slice(from, nl));
      finish();
      from = nl + 1;
    }
    if (from < text.length) keep(text.slice(from));
    if (chunk === null) break;
  }
  if (started) finish();
  return scan;

  function keep(piece: string): void {
    started = true;
    const wanted = scan.total >= options.skip && scan.total < end;
    if (wanted && partial.length <= MAX_LINE_CHARS + 1) partial += piece.slice(0, MAX_LINE_CHARS + 2);
  }
}

function clipLine(raw: string): string {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line clipped]` : line;
}

function formatWindow(scan: Scan, skip: number): { output: string; truncated?: boolean } {
  const last = skip + scan.lines.length;
  // An unpadded number and a tab: the cheapest unambiguous gutter under DeepSeek's tokenizer (a tab merges
  // with the line's indentation), and every byte here is re-read on each later turn.
  const body = scan.lines.map((line, i) => `${skip + i + 1}\t${line}`).join("\n");
  if (last >= scan.total) return { output: body };
  const trailer = `[showing lines ${skip + 1}-${last} of ${scan.total}; use offset=${last} to read more]`;
  return { output: `${body}\n\n${trailer}`, truncated: scan.budgetHit || undefined };
}
