/**
 * `deno run -A scripts/check_payload.ts`: proves the compiled binary still carries every npm file the
 * program opens. It runs scripts/_payload_probe.ts from source under `strace` (every module under src/,
 * the Ink shell, every grammar, the bash parser, highlighted Markdown, the HTML converter), collects the
 * files it opened in Deno's npm cache, and checks each is neither left out by scripts/_compile_payload.ts
 * nor in a package the compile did not embed. The compile runs offline with DENORT_BIN (default: this
 * `deno`; the output is a stand-in, removed at once). Prints the payload's size. Needs Linux and strace.
 */
import { join, resolve } from "node:path";
import { compileStandIn, npmCacheDir, payloadExcludes } from "./_compile_payload.ts";

const ROOT = resolve(import.meta.dirname!, "..");

async function openedNpmFiles(registry: string): Promise<string[]> {
  const log = await Deno.makeTempFile({ prefix: "reasonix-probe-", suffix: ".strace" });
  try {
    const run = await new Deno.Command("strace", {
      args: ["-f", "-qq", "-e", "trace=openat", "-o", log, Deno.execPath(), "run", "--no-prompt", "-A"]
        .concat([join(ROOT, "scripts/_payload_probe.ts")]),
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!run.success) throw new Error(`The probe failed:\n${new TextDecoder().decode(run.stderr)}`);
    const opened = new Set<string>();
    for (const line of (await Deno.readTextFile(log)).split("\n")) {
      const path = /openat\([^,]+, "([^"]+)"/.exec(line)?.[1];
      if (path?.startsWith(`${registry}/`) && !/= -1 /.test(line)) opened.add(path);
    }
    return [...opened].sort();
  } finally {
    await Deno.remove(log);
  }
}

if (import.meta.main) {
  const registry = join(await npmCacheDir(), "registry.npmjs.org");
  const runtime = Deno.env.get("DENORT_BIN") ?? Deno.execPath();
  const [opened, excluded, standIn] = await Promise.all([
    openedNpmFiles(registry),
    payloadExcludes(),
    compileStandIn(runtime),
  ]);
  const left = new Set(excluded);
  // `deno run` reads the registry's metadata to resolve versions (the binary carries its own snapshot),
  // and source maps only to map stack-trace positions: a binary without them runs the same.
  const maps = opened.filter((path) => path.endsWith(".map"));
  const missing = opened.filter((path) => !path.endsWith("/registry.json") && !path.endsWith(".map")).filter(
    (path) => {
      const inPackage = path.slice(registry.length + 1);
      return left.has(path) || !standIn.packages.some((dir) => inPackage.startsWith(`${dir}/`));
    },
  );
  console.log(
    `payload: Files ${standIn.filesMb.toFixed(2)} MB, ${
      (standIn.appendedBytes / 2 ** 20).toFixed(2)
    } MB appended to the runtime; ${standIn.packages.length} npm folders embedded, ${excluded.length} files left out`,
  );
  console.log(
    `the probe opened ${opened.length} files of npm packages (${maps.length} source maps, left out: stack traces ` +
      `in those packages show bundle positions)`,
  );
  if (missing.length > 0) {
    console.error(`Not in the payload, but opened at run time:\n${missing.join("\n")}`);
    Deno.exit(1);
  }
  console.log("every one of them is in the payload");
}
