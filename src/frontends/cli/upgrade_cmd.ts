/**
 * @module
 * `reasonix upgrade [--check] [--force]` (alias `update`): a thin renderer over control/upgrade.ts.
 */
import { Command, Option } from "commander";
import { platformFor } from "../../lib/platforms.ts";
import { VERSION } from "../../lib/version.ts";
import { ReasonixError } from "../../lib/errors.ts";

export function upgradeCommand(): Command {
  return new Command("upgrade").alias("update")
    .description("Replace this binary with the latest release (checksum verified)")
    .option("--check", "only report whether a newer release exists")
    .option("--force", "reinstall even when already up to date")
    .addOption(new Option("--channel <name>", "ignored: there is one release channel").hideHelp())
    .action(async (opts: { check?: boolean; force?: boolean }) => {
      await upgradeCmd(opts);
    });
}

async function upgradeCmd(opts: { check?: boolean; force?: boolean }): Promise<void> {
  const { manifestUrl, upgrade } = await import("../../control/mod.ts");
  const outcome = await upgrade({
    manifestUrl: manifestUrl(),
    currentVersion: VERSION,
    executable: Deno.execPath(),
    platform: platformFor(Deno.build),
    check: Boolean(opts.check),
    force: Boolean(opts.force),
  });
  if (outcome.status === "failed") throw new ReasonixError("upgrade.failed", outcome.message);
  console.log(outcome.message);
}
