/**
 * @module
 * Runs the anchored file program (_host_fs_script.ts) on the host for the file tools. It lives with
 * the other host spawns; it is not a sandbox: its confinement comes from the cwd anchor, not a policy.
 */
import { HOST_FS_SCRIPT } from "./_host_fs_script.ts";
import { adoptChild } from "./children.ts";

export { HOST_FS_EXIT, HOST_FS_READ_OK } from "./_host_fs_script.ts";

export interface HostFsResult {
  code: number;
  stdout: Uint8Array;
  stderr: string;
}

/** `args` are the operation and its operands; nothing in them is ever parsed by a shell. */
export async function runHostFs(args: readonly string[], stdin: Uint8Array | null): Promise<HostFsResult> {
  const child = new Deno.Command("bash", {
    args: ["--noprofile", "--norc", "-c", HOST_FS_SCRIPT, "reasonix-fs", ...args],
    clearEnv: true,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", LC_ALL: "C" },
    stdin: stdin === null ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  adoptChild(child, { group: false });
  if (stdin !== null) {
    const writer = child.stdin.getWriter();
    await writer.write(stdin).catch(() => {});
    await writer.close().catch(() => {});
  }
  const { code, stdout, stderr } = await child.output();
  return { code, stdout, stderr: new TextDecoder().decode(stderr).trim() };
}
