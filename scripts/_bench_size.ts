/**
 * @module
 * The compiled binary's size beside the Go binary's (`BENCH_ONLY=size deno task bench`, and in the
 * default run). Offline: the compile uses DENORT_BIN (default: this `deno`) as the runtime, so the
 * payload is measured and the runtime is measured only when DENORT_BIN is a real denort; otherwise
 * it is estimated (DENORT_ESTIMATE_MB, default 80: Deno's own figure for its runtime, ~81.5 MB).
 * Printed, never asserted.
 */
import { basename } from "node:path";
import { compileStandIn } from "./_compile_payload.ts";
import { goBinary } from "./_bench_go.ts";

const MB = 2 ** 20;

export async function runSizeBench(): Promise<void> {
  const given = Deno.env.get("DENORT_BIN");
  const runtime = given ?? Deno.execPath();
  const realRuntime = given !== undefined && basename(given).startsWith("denort");
  console.log(`\n## Compiled binary size (${Deno.build.target}; deno compile, runtime from ${runtime})`);
  const standIn = await compileStandIn(runtime);
  const runtimeMb = realRuntime
    ? standIn.runtimeBytes / MB
    : Number(Deno.env.get("DENORT_ESTIMATE_MB") ?? 80);
  const appendedMb = standIn.appendedBytes / MB;
  console.log(`payload "Files:"       ${standIn.filesMb.toFixed(1).padStart(6)} MB  (measured)`);
  console.log(
    `appended to runtime   ${appendedMb.toFixed(1).padStart(6)} MB  (measured: output minus runtime)`,
  );
  console.log(
    `runtime (denort)      ${runtimeMb.toFixed(1).padStart(6)} MB  (${
      realRuntime ? "measured" : "estimated; set DENORT_BIN to a denort to measure"
    })`,
  );
  console.log(`total                 ${(runtimeMb + appendedMb).toFixed(1).padStart(6)} MB`);
  const go = await goBinary();
  if (go) {
    console.log(
      `reasonix (go)         ${((await Deno.stat(go)).size / MB).toFixed(1).padStart(6)} MB  (measured)`,
    );
  }
}

if (import.meta.main) await runSizeBench();
