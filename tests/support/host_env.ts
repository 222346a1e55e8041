/**
 * @module
 * The little of this machine's environment a test passes on to what it starts (the CLI, a Controller's MCP
 * servers): where programs and Deno's package cache are, and how this machine reaches the npm registry (a
 * proxy, its CA bundle). Nothing else leaks in, so a test sees what a user's clean shell would.
 */

/** How this machine reaches the network: without them a first npm download fails (an unknown issuer). */
const NETWORK = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
  "NPM_CONFIG_REGISTRY",
];

export function hostEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" };
  for (const name of ["DENO_DIR", "XDG_CACHE_HOME", ...NETWORK]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}
