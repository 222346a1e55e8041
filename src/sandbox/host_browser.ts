/**
 * @module
 * Opens a URL in the user's browser, on the host: `$BROWSER` when it is set (so scripts and CI can follow
 * an OAuth login themselves), else the platform's opener (`open`, `xdg-open`, `rundll32`). The browser is
 * not waited for; what it does is its own business. Nothing goes through a shell.
 */

export interface OpenedBrowser {
  /** The command that was started. */
  command: string;
  /** Settles when the command exits (a browser itself may run for a long time). */
  exited: Promise<void>;
}

/** Undefined when nothing could be started (the caller has printed the URL anyway). */
export function openInBrowser(
  url: string,
  env: Record<string, string | undefined>,
): OpenedBrowser | undefined {
  for (const argv of candidates(url, env)) {
    try {
      const child = new Deno.Command(argv[0]!, {
        args: argv.slice(1),
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      return { command: argv[0]!, exited: child.status.then(() => {}, () => {}) };
    } catch {
      continue;
    }
  }
  return undefined;
}

function candidates(url: string, env: Record<string, string | undefined>): string[][] {
  const browser = (env.BROWSER ?? "").split(Deno.build.os === "windows" ? ";" : ":")
    .map((entry) => entry.trim()).filter((entry) => entry !== "");
  // Python's convention: an entry may say where the URL goes with %s; otherwise it is the last argument.
  const fromEnv = browser.map((entry) => {
    const words = entry.split(/\s+/);
    return words.some((word) => word.includes("%s"))
      ? words.map((word) => word.replaceAll("%s", url))
      : [...words, url];
  });
  if (fromEnv.length > 0) return fromEnv;
  if (Deno.build.os === "darwin") return [["open", url]];
  if (Deno.build.os === "windows") return [["rundll32", "url.dll,FileProtocolHandler", url]];
  return [["xdg-open", url]];
}
