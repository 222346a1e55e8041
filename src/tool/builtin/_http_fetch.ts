/** web_fetch's HTTP side: GET with manually followed redirects and a body read that stops at a size cap. */
import { ToolError } from "../tool.ts";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const ACCEPT = "text/html, application/xhtml+xml, application/json, text/plain;q=0.9, */*;q=0.5";

export interface FetchedPage {
  url: URL;
  status: number;
  contentType: string;
  body: Uint8Array;
}

export interface HttpGetOptions {
  signal: AbortSignal;
  maxRedirects: number;
  maxBytes: number;
  /** Decides from the content type whether to read the body at all; throws to refuse. */
  accept: (contentType: string, url: URL) => void;
  /**
   * Runs before every request, the first and each redirect (`from` is the URL that redirected): throws to
   * refuse it, or returns the client that connects to the checked address (closed after the hop).
   */
  route: (url: URL, from: URL | null) => Promise<Deno.HttpClient | undefined>;
}

/** Parses an http(s) URL or throws a ToolError saying what is wrong with it. */
export function parseHttpUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ToolError("tool.invalid_url", `Cannot fetch "${input}": not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolError(
      "tool.invalid_url",
      `Cannot fetch "${input}": only http and https URLs are supported`,
    );
  }
  return url;
}

export async function httpGet(start: URL, options: HttpGetOptions): Promise<FetchedPage> {
  let url = start;
  let from: URL | null = null;
  for (let hop = 0;; hop++) {
    const client = await options.route(url, from);
    try {
      const response = await fetch(url, {
        redirect: "manual",
        signal: options.signal,
        headers: { accept: ACCEPT, "user-agent": "reasonix-web-fetch" },
        ...(client ? { client } : {}),
      });
      if (!REDIRECT_STATUSES.has(response.status)) return await settle(response, url, options);
      await response.body?.cancel();
      from = url;
      url = nextHop(response, url, start, hop, options.maxRedirects);
    } finally {
      client?.close();
    }
  }
}

function nextHop(response: Response, url: URL, start: URL, hop: number, maxRedirects: number): URL {
  const location = response.headers.get("location");
  if (location === null) {
    throw new ToolError(
      "tool.http_status",
      `Cannot fetch "${url}": HTTP ${response.status} without a Location`,
    );
  }
  if (hop >= maxRedirects) {
    throw new ToolError(
      "tool.too_many_redirects",
      `Cannot fetch "${start}": more than ${maxRedirects} redirects (last to "${location}")`,
    );
  }
  return parseHttpUrl(new URL(location, url).href);
}

async function settle(response: Response, url: URL, options: HttpGetOptions): Promise<FetchedPage> {
  const contentType = response.headers.get("content-type") ?? "";
  try {
    if (response.status < 200 || response.status > 299) {
      const reason = response.statusText ? ` ${response.statusText}` : "";
      throw new ToolError("tool.http_status", `Cannot fetch "${url}": HTTP ${response.status}${reason}`);
    }
    options.accept(contentType, url);
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > options.maxBytes) throw tooLarge(url, options.maxBytes);
  } catch (error) {
    await response.body?.cancel();
    throw error;
  }
  const body = await readCapped(response, url, options.maxBytes);
  return { url, status: response.status, contentType, body };
}

async function readCapped(response: Response, url: URL, maxBytes: number): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge(url, maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

function tooLarge(url: URL, maxBytes: number): ToolError {
  return new ToolError(
    "tool.response_too_large",
    `Cannot fetch "${url}": the response is larger than the ${formatBytes(maxBytes)} limit`,
  );
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
