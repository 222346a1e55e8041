/**
 * @module
 * The version has one source of truth: deno.json. Build metadata (commit, date, target) is stamped by
 * the generated entry module that scripts/compile.ts compiles; running from source reports "dev".
 */
import manifest from "../../deno.json" with { type: "json" };

export const VERSION: string = manifest.version;

export interface BuildStamp {
  commit: string;
  date: string;
  target: string;
}

export interface BuildInfo extends BuildStamp {
  version: string;
  deno: string;
  compiled: boolean;
}

let stamp: BuildStamp | undefined;

/** Called once, by the compiled entry module, before main.ts loads. */
export function stampBuild(info: BuildStamp): void {
  stamp = { ...info };
}

export function buildInfo(): BuildInfo {
  return {
    version: VERSION,
    commit: stamp?.commit ?? "dev",
    date: stamp?.date ?? "unknown",
    target: stamp?.target ?? Deno.build.target,
    deno: Deno.version.deno,
    compiled: stamp !== undefined,
  };
}
