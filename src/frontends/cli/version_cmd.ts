/**
 * @module
 * `reasonix version [--verbose|--json]`. `--version`/`-v` (one line) stays on the root program.
 */
import { Command } from "commander";
import { buildInfo } from "../../lib/version.ts";

export function versionLine(): string {
  return `reasonix v${buildInfo().version}`;
}

export function versionText(options: { json?: boolean; verbose?: boolean }): string {
  const info = buildInfo();
  if (options.json) {
    return JSON.stringify({
      version: info.version,
      git_commit: info.commit,
      build_time_utc: info.date,
      build_target: info.target,
      deno: info.deno,
    });
  }
  if (!options.verbose) return versionLine();
  return [
    versionLine(),
    `commit  ${info.commit}`,
    `built   ${info.date}`,
    `target  ${info.target}`,
    `deno    ${info.deno}`,
  ].join("\n");
}

export function versionCommand(): Command {
  return new Command("version").description("Print version information")
    .option("--json", "as JSON").option("--verbose", "with commit, build date, target and Deno version")
    .action((opts: { json?: boolean; verbose?: boolean }) => console.log(versionText(opts)));
}
