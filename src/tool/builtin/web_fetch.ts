import { z } from "zod";
import { defineTool, type ToolContext, ToolError } from "../tool.ts";
import { checkTarget, resolveDns, type Resolver } from "./_fetch_target.ts";
import { type FetchedPage, httpGet, parseHttpUrl } from "./_http_fetch.ts";
import { SNIFF_BYTES, sniffBytes } from "./_sniff.ts";

export const FETCH_TIMEOUT_MS = 30_000;
export const MAX_FETCH_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

const DESCRIPTION =
  `Fetch an http(s) URL as text: HTML as Markdown, JSON pretty-printed, other text as is. Binary bodies and non-2xx statuses are errors.`;

const parameters = z.object({
  url: z.string().min(1).describe("An absolute http(s) URL"),
  format: z.enum(["markdown", "raw"]).optional().describe(
    "raw: the body unchanged (default markdown)",
  ),
});

export interface WebFetchOptions {
  /** Defaults to FETCH_TIMEOUT_MS; tests pass a short one. */
  timeoutMs?: number;
  /** Defaults to MAX_FETCH_BYTES. */
  maxBytes?: number;
  /** Looks up host names; defaults to DNS (A and AAAA). */
  resolve?: Resolver;
}

type Kind = "html" | "json" | "text" | "binary" | "sniff";

const BINARY_PREFIXES = ["image/", "audio/", "video/", "font/", "model/", "application/vnd."];
const TEXT_TYPES = new Set([
  "application/xml",
  "application/javascript",
  "application/ecmascript",
  "application/x-javascript",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/x-sh",
  "application/sql",
  "application/graphql",
  "application/x-ndjson",
  "application/x-www-form-urlencoded",
]);
const BINARY_TYPES = new Set([
  "application/octet-stream",
  "application/pdf",
  "application/zip",
  "application/gzip",
  "application/x-gzip",
  "application/x-tar",
  "application/x-bzip2",
  "application/x-7z-compressed",
  "application/x-rar-compressed",
  "application/wasm",
  "application/msword",
  "application/x-protobuf",
]);

export function createWebFetchTool(options: WebFetchOptions = {}) {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_FETCH_BYTES;
  const resolve = options.resolve ?? resolveDns;
  return defineTool({
    name: "web_fetch",
    description: DESCRIPTION,
    parameters,
    readOnly: true,
    truncationHint: "fetch a narrower URL (a sub-page, a raw file or an API endpoint) to see the rest",
    async execute(args, ctx) {
      const url = parseHttpUrl(args.url);
      if (ctx.network?.allowed === false) {
        throw new ToolError(
          "tool.network_disabled",
          `Cannot fetch "${url}": network access is turned off; set [sandbox] network = true to allow it`,
        );
      }
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      const signal = AbortSignal.any([ctx.signal, deadline.signal]);
      const allowPrivate = ctx.network?.allowPrivate ?? [];
      try {
        const page = await httpGet(url, {
          signal,
          maxRedirects: MAX_REDIRECTS,
          maxBytes,
          accept: refuseBinary,
          async route(next, from) {
            if (from !== null && next.hostname !== url.hostname) await checkRedirect(from, next, ctx);
            const target = await checkTarget(next, { resolve, allowPrivate, signal });
            return pinnedClient(next, target.address);
          },
        });
        return {
          output: await render(page, args.format ?? "markdown"),
          data: {
            kind: "fetch",
            url: page.url.href,
            status: page.status,
            bytes: page.body.length,
            contentType: page.contentType,
          },
        };
      } catch (error) {
        if (error instanceof ToolError || ctx.signal.aborted) throw error;
        if (deadline.signal.aborted) {
          throw new ToolError(
            "tool.timeout",
            `Cannot fetch "${url}": no complete response within ${timeoutMs / 1000} s`,
          );
        }
        if (error instanceof TypeError) {
          throw new ToolError("tool.fetch_failed", `Cannot fetch "${url}": ${error.message}`);
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
  });
}

export const webFetchTool = createWebFetchTool();

/** A redirect to another host must pass the permission policy as a call of its own would, without asking. */
async function checkRedirect(from: URL, next: URL, ctx: ToolContext): Promise<void> {
  const refused = await ctx.permits?.({ url: next.href });
  if (!refused) return;
  throw new ToolError(
    "tool.redirect_refused",
    `Cannot follow the redirect from "${from}" to "${next}": ${refused}; web_fetch follows a redirect ` +
      `to another host only when that host is already allowed, so fetch "${next}" itself if it is needed`,
  );
}

/**
 * Plain http goes to the checked address. Deno's "tcp" transport speaks no TLS, so https connects by name
 * after the check; a rebinding answer then reaches a host whose certificate is not valid for the name.
 */
function pinnedClient(url: URL, address: string | null): Deno.HttpClient | undefined {
  if (address === null || url.protocol !== "http:") return undefined;
  return Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: address, port: Number(url.port || "80") },
  });
}

function mimeOf(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

function classify(contentType: string): Kind {
  const mime = mimeOf(contentType);
  if (mime === "") return "sniff";
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
  if (mime === "application/json" || mime.endsWith("+json")) return "json";
  if (mime.startsWith("text/") || mime.endsWith("+xml") || TEXT_TYPES.has(mime)) return "text";
  if (BINARY_TYPES.has(mime) || BINARY_PREFIXES.some((prefix) => mime.startsWith(prefix))) return "binary";
  return "sniff";
}

function refuseBinary(contentType: string, url: URL): void {
  if (classify(contentType) === "binary") throw binaryError(url, `"${mimeOf(contentType)}"`);
}

function binaryError(url: URL, what: string): ToolError {
  return new ToolError(
    "tool.unsupported_content",
    `Cannot fetch "${url}": the response is binary (${what}); web_fetch returns text only`,
  );
}

async function render(page: FetchedPage, format: "markdown" | "raw"): Promise<string> {
  let kind = classify(page.contentType);
  let text: string;
  if (kind === "sniff") {
    const sniff = sniffBytes(page.body.subarray(0, SNIFF_BYTES));
    if (sniff.kind !== "text") throw binaryError(page.url, "no text content type and not text");
    text = new TextDecoder(sniff.encoding).decode(page.body);
    kind = /^\s*<(!doctype html|html)[\s>]/i.test(text) ? "html" : "text";
  } else {
    text = decode(page.body, page.contentType);
  }
  const header = [`URL: ${page.url}`];
  let body = text;
  if (format === "markdown" && kind === "html") {
    const title = htmlTitle(text);
    if (title) header.push(`Title: ${title}`);
    // Loaded on first use: the converter and its HTML parser cost every session ~0.2 s of start-up.
    const { NodeHtmlMarkdown } = await import("node-html-markdown");
    body = NodeHtmlMarkdown.translate(text, { ignore: ["noscript", "template", "iframe", "svg"] });
  } else if (format === "markdown" && kind === "json") {
    body = prettyJson(text);
  }
  return `${header.join("\n")}\n\n${body.trim() === "" ? "(empty response)" : body}`;
}

function decode(body: Uint8Array, contentType: string): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the best guess left.
    return new TextDecoder("utf-8").decode(body);
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function htmlTitle(html: string): string | null {
  const raw = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  if (raw === undefined) return null;
  const title = decodeEntities(raw).replace(/\s+/g, " ").trim();
  return title === "" ? null : title;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== "#") return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X"
      ? parseInt(name.slice(2), 16)
      : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
