/**
 * @module
 * Where web_fetch may connect. Every address a host resolves to must be public unless the user config's
 * `[tools] web_fetch_allow_private` names the host; a plain http request is then sent to the address that
 * was checked, so a second DNS answer (rebinding) cannot move it to a private one.
 */
import { type AddressRange, addressRange } from "../../lib/ip_address.ts";
import { ToolError } from "../tool.ts";

/** Looks up a host name's A and AAAA addresses; tests pass their own. */
export type Resolver = (hostname: string, signal: AbortSignal) => Promise<string[]>;

export interface FetchTarget {
  /** The checked address an http request connects to; null when the URL's own host is used. */
  address: string | null;
}

const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data.ec2.internal"]);

export const ALLOW_PRIVATE_KEY = "[tools] web_fetch_allow_private";

export async function checkTarget(
  url: URL,
  options: { resolve: Resolver; allowPrivate: readonly string[]; signal: AbortSignal },
): Promise<FetchTarget> {
  const host = bareHost(url);
  const literal = addressRange(host) === null ? null : host;
  if (privateAllowed(url, options.allowPrivate)) {
    if (literal !== null || isLocalhost(host)) return { address: null };
    // The user vouched for this host: any address will do, and a name DNS does not know (a hosts file
    // entry) is left to the system resolver.
    const addresses = await options.resolve(host, options.signal).catch(() => []);
    return { address: addresses[0] ?? null };
  }
  if (isLocalhost(host)) throw refusal(url, `"${host}" is a loopback name`);
  if (METADATA_NAMES.has(host)) throw refusal(url, `"${host}" is a cloud metadata service`);
  const addresses = literal ? [literal] : await lookup(url, host, options);
  for (const address of addresses) {
    const range = addressRange(address);
    if (range !== "public") throw refusal(url, describe(host, address, range));
  }
  return { address: addresses[0]! };
}

/** The lower-case host without IPv6 brackets or a final dot, as rules and config name it. */
export function bareHost(url: URL): string {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return host.startsWith("[") ? host.slice(1, -1) : host;
}

/** Entries are `host` or `host:port` (`[::1]:8080` for IPv6), compared after URL normalisation. */
export function privateAllowed(url: URL, entries: readonly string[]): boolean {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return entries.some((entry) => {
    const parsed = parseEntry(entry);
    if (parsed === null || bareHost(parsed) !== bareHost(url)) return false;
    return parsed.port === "" || parsed.port === port;
  });
}

function parseEntry(entry: string): URL | null {
  const text = entry.trim();
  const bracketed = text.split(":").length > 2 && !text.startsWith("[") ? `[${text}]` : text;
  try {
    return new URL(`http://${bracketed}`);
  } catch {
    return null;
  }
}

function isLocalhost(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

async function lookup(
  url: URL,
  host: string,
  options: { resolve: Resolver; signal: AbortSignal },
): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await options.resolve(host, options.signal);
  } catch (error) {
    if (options.signal.aborted) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new ToolError("tool.fetch_failed", `Cannot fetch "${url}": cannot resolve "${host}": ${detail}`);
  }
  if (addresses.length === 0) {
    throw new ToolError("tool.fetch_failed", `Cannot fetch "${url}": "${host}" has no address`);
  }
  return addresses;
}

/** Both families; one may be missing, but a name with neither fails. */
export async function resolveDns(hostname: string, signal: AbortSignal): Promise<string[]> {
  const [a, aaaa] = await Promise.allSettled([
    Deno.resolveDns(hostname, "A", { signal }),
    Deno.resolveDns(hostname, "AAAA", { signal }),
  ]);
  if (a.status === "rejected" && aaaa.status === "rejected") throw a.reason;
  return [...(a.status === "fulfilled" ? a.value : []), ...(aaaa.status === "fulfilled" ? aaaa.value : [])];
}

function describe(host: string, address: string, range: AddressRange | null): string {
  const what = range === "metadata" ? "a cloud metadata address" : `a ${range} address`;
  return host === address ? `${address} is ${what}` : `"${host}" resolves to ${address}, ${what}`;
}

function refusal(url: URL, why: string): ToolError {
  const port = url.port ? `:${url.port}` : "";
  return new ToolError(
    "tool.private_address",
    `Cannot fetch "${url}": ${why}. web_fetch refuses loopback, private, link-local and cloud metadata ` +
      `addresses unless ${ALLOW_PRIVATE_KEY} in the user config lists "${url.hostname}${port}"`,
  );
}
