/**
 * @module
 * The Go Reasonix the benches compare against: `npm i reasonix@GO_VERSION` into bench/ on first use.
 */
import { join, resolve } from "node:path";

const BENCH_DIR = join(resolve(import.meta.dirname!, ".."), "bench");
export const GO_VERSION = "1.38.11";

/** The native binary's path, installing it when missing; null when npm cannot install it. */
export async function goBinary(): Promise<string | null> {
  const bin = join(BENCH_DIR, "node_modules/@reasonix/cli-linux-x64/bin/reasonix");
  try {
    await Deno.stat(bin);
    return bin;
  } catch {
    console.error(`Installing reasonix@${GO_VERSION} into bench/ ...`);
    await Deno.mkdir(BENCH_DIR, { recursive: true });
    const out = await new Deno.Command("npm", {
      args: ["i", "--prefix", BENCH_DIR, `reasonix@${GO_VERSION}`],
      stdout: "null",
      stderr: "inherit",
    }).output();
    return out.success ? bin : null;
  }
}
