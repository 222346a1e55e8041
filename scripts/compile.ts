/**
 * `deno task compile [--target T ...]`: self-contained binaries in dist/<target>/reasonix[.exe].
 * `deno compile` needs Deno's runtime (denort) for each target, downloaded from Deno's server or
 * given with DENORT_BIN / a zip in Deno's download cache. Without it this stops with one sentence
 * and leaves nothing behind under the binary's name.
 */
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname!, "..");
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
  "aarch64-pc-windows-msvc",
];

function parseTargets(args: string[]): string[] {
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--target" && args[i + 1]) targets.push(args[++i]!);
    else if (args[i]!.startsWith("--target=")) targets.push(args[i]!.slice("--target=".length));
    else throw new TypeError(`Unknown argument "${args[i]}": use --target <triple>`);
  }
  for (const target of targets) {
    if (!TARGETS.includes(target)) {
      throw new TypeError(`Unknown target "${target}": use one of ${TARGETS.join(", ")}`);
    }
  }
  return targets.length > 0 ? targets : TARGETS;
}

async function compile(target: string): Promise<boolean> {
  const output = join(ROOT, "dist", target, target.includes("windows") ? "reasonix.exe" : "reasonix");
  await Deno.mkdir(join(ROOT, "dist", target), { recursive: true });
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["compile", "--no-prompt", "-A", "--target", target, "--output", output, join(ROOT, "main.ts")],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (run.success) {
    console.log(`compiled ${target} -> ${output}`);
    return true;
  }
  await Deno.remove(output).catch(() => {});
  const stderr = new TextDecoder().decode(run.stderr);
  if (/denort|base binary|dl\.deno\.land/i.test(stderr)) {
    console.error(
      `Cannot compile for ${target}: Deno's runtime (denort-${target}.zip) could not be obtained from ` +
        `Deno's download server; set DENORT_BIN to a denort binary for this target, or put the zip in ` +
        `$DENO_DIR/dl/release/v${Deno.version.deno}/ (a networked release job downloads it by itself)`,
    );
  } else {
    console.error(`Cannot compile for ${target}:\n${stderr}`);
  }
  return false;
}

if (import.meta.main) {
  let ok = true;
  for (const target of parseTargets(Deno.args)) ok = (await compile(target)) && ok;
  if (!ok) Deno.exit(1);
}
