/**
 * @module
 * `reasonix doctor`: prints the sandbox checks from control/doctor.ts.
 */
import { processEnv } from "../../config/paths.ts";
import { adminContext, formatChecks, sandboxChecks } from "../../control/mod.ts";
import { runByDeno } from "./fence.ts";

export async function doctorCmd(opts: { dir?: string; json?: boolean }): Promise<void> {
  const checks = await sandboxChecks(await adminContext(opts.dir), {
    env: processEnv(),
    runtime: runByDeno() ? "deno" : "compiled",
  });
  console.log(opts.json ? JSON.stringify({ checks }, null, 2) : formatChecks(checks).trimEnd());
}
