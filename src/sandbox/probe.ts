/**
 * @module
 * Can an OS sandbox run here? bubblewrap must exist and be able to create its namespaces (containers
 * and some distributions forbid unprivileged user namespaces); Seatbelt needs `sandbox-exec`.
 */

import { HARDENING } from "./bubblewrap.ts";
import { adoptChild } from "./children.ts";

export type Probe = { ok: true } | { ok: false; reason: string };

const PROBE_TIMEOUT_MS = 10_000;

export async function probeBubblewrap(bwrap = "bwrap"): Promise<Probe> {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", ...HARDENING];
  let output: Deno.CommandOutput;
  try {
    const child = new Deno.Command(bwrap, {
      args: [...args, "--die-with-parent", "--", "true"],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    }).spawn();
    output = await adoptChild(child, { group: false }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { ok: false, reason: "bubblewrap (bwrap) is not installed" };
    }
    return { ok: false, reason: `bubblewrap could not start: ${(error as Error).message}` };
  }
  if (output.success) return { ok: true };
  const detail = new TextDecoder().decode(output.stderr).trim().split("\n")[0] || `exit ${output.code}`;
  return { ok: false, reason: `bubblewrap cannot create namespaces here (${detail})` };
}

export async function probeSeatbelt(executable = "/usr/bin/sandbox-exec"): Promise<Probe> {
  try {
    await Deno.stat(executable);
    return { ok: true };
  } catch {
    return { ok: false, reason: `${executable} is missing` };
  }
}
