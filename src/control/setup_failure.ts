/**
 * @module
 * Says in plain words why the setup wizard's test request failed: no route, no DNS, no answer in time,
 * a proxy in the way, a rejected key, no balance or a server error, always naming the host. Text that came
 * from the server has its terminal controls escaped; the key never appears.
 */
import { safeUrl } from "../config/schema.ts";
import { ProviderError } from "../provider/errors.ts";
import { escapeControls } from "../lib/terminal_text.ts";

export interface FailureScene {
  baseUrl: string;
  /** The environment snapshot, for the proxy variables fetch honours. */
  env: Record<string, string>;
  key: string;
}

/** The proxy fetch sends the request through, and the variable that set it. */
export interface Proxy {
  host: string;
  variable: string;
}

/** One line: what failed, where, and what usually fixes it. */
export function explainTestFailure(error: unknown, scene: FailureScene): string {
  const host = safeUrl(scene.baseUrl)?.host ?? scene.baseUrl;
  const proxy = proxyFor(scene.baseUrl, scene.env);
  const text = scrub(chainText(error), scene.key);
  const code = error instanceof ProviderError ? error.code : "";
  const status = error instanceof ProviderError ? error.status : undefined;
  if (status === 407 || (proxy && /proxy/i.test(text))) {
    const who = proxy ? `The proxy ${proxy.host} (${proxy.variable})` : "A proxy";
    return `${who} refused the request to ${host}: check its address and credentials`;
  }
  const blocked = /Requests to port (\d+) are blocked/.exec(text);
  if (blocked) return `${host}: port ${blocked[1]} is one that fetch refuses to call; use another port`;
  if (/Requires net access|NotCapable/.test(text)) {
    return `This session may not connect to ${host}: run \`reasonix setup\` in a shell instead`;
  }
  if (code === "provider.network" || code === "provider.timeout" || code === "provider.aborted") {
    return networkReason(text, { host, proxy, timedOut: code !== "provider.network" });
  }
  if (status === 401 || status === 403) {
    return `${host} rejected the key (${status}): check that it is this provider's key`;
  }
  if (status === 402) return `${host} accepted the key, but the account has no balance (402): top it up`;
  if (status === 429) return `${host} is rate limiting this key (429): wait a minute, then retry`;
  if (status !== undefined && status >= 500) return `${host} had a server error (${status}): retry later`;
  if (status === 404) return `${host} has no such API or model (404): check the base URL and the model name`;
  if (status !== undefined) {
    const detail = safeDetail(error, scene.key).replace(/^The provider rejected the request \(\d+\): /, "");
    return `${host} rejected the test request (${status}): ${detail}`;
  }
  if (/certificate|tls|ssl/i.test(text)) {
    return `Cannot check ${host}'s TLS certificate: a proxy that intercepts HTTPS, or a wrong clock`;
  }
  return `The test request to ${host} failed: ${safeDetail(error, scene.key)}`;
}

function networkReason(text: string, where: { host: string; proxy?: Proxy; timedOut: boolean }): string {
  const { host, proxy } = where;
  if (where.timedOut || /timed? ?out/i.test(text)) {
    const via = proxy ? ` through the proxy ${proxy.host} (${proxy.variable})` : "";
    return `${host} did not answer in time${via}: a filtered network, or a proxy is needed`;
  }
  // Through a proxy, fetch connects to the proxy only: a refused connection or a failed lookup is the proxy's.
  if (proxy) {
    const reason = /refused/i.test(text)
      ? "refused"
      : /not found|dns|resolve|lookup/i.test(text)
      ? "was not found"
      : "is unreachable";
    return `Cannot reach ${host}: its proxy ${proxy.host} (${proxy.variable}) ${reason}`;
  }
  if (/refused/i.test(text)) return `Connection to ${host} refused: nothing listens there, or a firewall`;
  if (/not found|dns|resolve|lookup/i.test(text)) {
    return `Cannot find ${host}: DNS lookup failed (offline, or a wrong name?)`;
  }
  if (/reset/i.test(text)) return `The connection to ${host} was reset: a proxy or firewall may block it`;
  return `Cannot reach ${host}: check the network`;
}

/** The proxy fetch would use for this URL, from HTTPS_PROXY / HTTP_PROXY / ALL_PROXY and NO_PROXY. */
export function proxyFor(baseUrl: string, env: Record<string, string>): Proxy | undefined {
  const url = safeUrl(baseUrl);
  if (!url) return undefined;
  const lookUp = (name: string): [string, string] | undefined => {
    for (const variable of [name, name.toLowerCase()]) {
      const value = (env[variable] ?? "").trim();
      if (value !== "") return [variable, value];
    }
    return undefined;
  };
  const found = lookUp(url.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY") ?? lookUp("ALL_PROXY");
  if (found === undefined || bypassed(url.hostname, lookUp("NO_PROXY")?.[1] ?? "")) return undefined;
  const [variable, value] = found;
  const proxy = safeUrl(value.includes("://") ? value : `http://${value}`);
  return { host: proxy ? escapeControls(proxy.host) : "(unreadable address)", variable };
}

function bypassed(hostname: string, noProxy: string): boolean {
  return noProxy.split(",").map((entry) => entry.trim().toLowerCase()).some((entry) => {
    if (entry === "*") return true;
    const bare = entry.replace(/^\*?\./, "").replace(/:\d+$/, "");
    return bare !== "" && (hostname === bare || hostname.endsWith(`.${bare}`));
  });
}

function safeDetail(error: unknown, key: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return escapeControls(scrub(message, key));
}

function chainText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined; depth++) {
    parts.push(current instanceof Error ? `${current.name} ${current.message}` : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(": ");
}

function scrub(text: string, key: string): string {
  return key === "" ? text : text.split(key).join("***");
}
