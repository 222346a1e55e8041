/**
 * acpx, an independent ACP client from npm, installed once with npm into a cache directory outside the
 * repository (~/.cache/reasonix-tests/acpx-<version>) and run with node, driving `reasonix acp`.
 */
import { join } from "node:path";
import { cliEnv, MAIN_TS } from "./cli.ts";

export const ACPX_VERSION = "0.19.1";

/** The acpx CLI script, installed on first use. */
export async function ensureAcpx(): Promise<string> {
  const dir = join(Deno.env.get("HOME")!, ".cache", "reasonix-tests", `acpx-${ACPX_VERSION}`);
  const cli = join(dir, "node_modules", "acpx", "dist", "cli.js");
  if (await Deno.stat(cli).then(() => true, () => false)) return cli;
  await Deno.mkdir(dir, { recursive: true });
  const out = await new Deno.Command("npm", {
    args: ["install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", `acpx@${ACPX_VERSION}`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`npm install acpx failed: ${new TextDecoder().decode(out.stderr)}`);
  return cli;
}

export interface AcpxRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface AcpxOptions {
  cli: string;
  /** Reasonix's home (REASONIX_HOME). */
  home: string;
  /** acpx's own HOME (it keeps sessions in ~/.acpx). */
  acpxHome: string;
  cwd: string;
}

/** `acpx --agent "<deno> run … main.ts acp" --cwd <cwd> <args>`. */
export function acpxCommand(args: string[], options: AcpxOptions): Deno.Command {
  const agent = `${Deno.execPath()} run --no-prompt -A ${MAIN_TS} acp`;
  const denoDir = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME")!, ".cache", "deno");
  return new Deno.Command("node", {
    args: [options.cli, "--agent", agent, "--cwd", options.cwd, ...args],
    cwd: options.cwd,
    env: cliEnv(options.home, { HOME: options.acpxHome, DENO_DIR: denoDir }),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  });
}

export async function runAcpx(args: string[], options: AcpxOptions): Promise<AcpxRun> {
  const out = await acpxCommand(args, options).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** The JSON-RPC messages of `--format json` output. */
export function jsonMessages(stdout: string): Record<string, unknown>[] {
  return stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
}
