/**
 * Runs the real CLI (`main.ts`) in a child process with an isolated Reasonix home, the way a user
 * would: no environment leaks in but hostEnv() (where Deno and its package cache are, how to reach npm).
 */
import { join, resolve } from "node:path";
import { hostEnv } from "./host_env.ts";

export const MAIN_TS = resolve(import.meta.dirname!, "../../main.ts");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  home: string;
  cwd: string;
  stdin?: string;
  env?: Record<string, string>;
  /** Own process group (kill it whole with `Deno.kill(-pid, …)`: `run` re-runs itself under the fence). */
  detached?: boolean;
}

export function cliEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...hostEnv(), REASONIX_HOME: home, NO_COLOR: "1" };
  const lang = Deno.env.get("LANG");
  if (lang !== undefined) env.LANG = lang;
  return { ...env, ...extra };
}

export function cliCommand(args: string[], options: CliOptions): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", MAIN_TS, ...args],
    cwd: options.cwd,
    env: cliEnv(options.home, options.env),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    ...(options.detached ? { detached: true } : {}),
  });
}

export async function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  const child = cliCommand(args, options).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

export interface HomeOptions {
  simUrl: string;
  apiKey?: string;
  extraToml?: string;
}

/** A Reasonix home whose built-in DeepSeek provider points at the simulator. */
export async function makeHome(options: HomeOptions): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "reasonix-home-" });
  const toml = [
    `default_model = "deepseek-flash"`,
    ``,
    `[network]`,
    `max_retries = 3`,
    `retry_base_ms = 20`,
    ``,
    `[[providers]]`,
    `name = "deepseek-flash"`,
    `kind = "openai"`,
    `base_url = "${options.simUrl}"`,
    `model = "deepseek-flash"`,
    `api_key_env = "DEEPSEEK_API_KEY"`,
    `reasoning_protocol = "deepseek"`,
    ``,
    options.extraToml ?? "",
  ].join("\n");
  await Deno.writeTextFile(join(home, "config.toml"), toml);
  await Deno.writeTextFile(join(home, ".env"), `DEEPSEEK_API_KEY=${options.apiKey ?? "sk-sim-test"}\n`);
  return home;
}

export async function makeWorkspace(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-ws-" }));
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  return dir;
}

/** The session files (`.jsonl`; not their locks) of every workspace. */
export async function sessionFiles(home: string): Promise<string[]> {
  const root = join(home, "sessions");
  const files: string[] = [];
  try {
    for await (const dir of Deno.readDir(root)) {
      for await (const entry of Deno.readDir(join(root, dir.name))) {
        // Checkpoint directories sit beside the session files.
        if (entry.name.endsWith(".jsonl")) files.push(join(root, dir.name, entry.name));
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return files.sort();
}

export async function removeAll(...dirs: string[]): Promise<void> {
  for (const dir of dirs) await Deno.remove(dir, { recursive: true });
}
