/**
 * @module
 * `/copy` through the platform's own clipboard tool (pbcopy, clip.exe, wl-copy, xclip, xsel), run
 * on the host, outside any sandbox, and only when one is on PATH with a display to talk to.
 */
import { join } from "node:path";
import { adoptChild } from "./children.ts";

interface ClipboardTool {
  command: string;
  args: string[];
  usable(env: Record<string, string | undefined>): boolean;
}

const TOOLS: readonly ClipboardTool[] = [
  { command: "pbcopy", args: [], usable: () => Deno.build.os === "darwin" },
  { command: "clip.exe", args: [], usable: (env) => Deno.build.os === "windows" || !!env.WSL_DISTRO_NAME },
  { command: "wl-copy", args: [], usable: (env) => !!env.WAYLAND_DISPLAY },
  { command: "xclip", args: ["-selection", "clipboard"], usable: (env) => !!env.DISPLAY },
  { command: "xsel", args: ["--clipboard", "--input"], usable: (env) => !!env.DISPLAY },
];

/** Runs the first usable tool found on PATH; returns its name, or nothing when none worked. */
export async function copyWithTool(text: string, env: Record<string, string | undefined>): Promise<string[]> {
  for (const tool of TOOLS) {
    if (!tool.usable(env) || !await onPath(tool.command, env.PATH ?? "")) continue;
    if (await runWithInput(tool, text)) return [tool.command];
  }
  return [];
}

async function onPath(command: string, path: string): Promise<boolean> {
  const separator = Deno.build.os === "windows" ? ";" : ":";
  for (const dir of path.split(separator).filter(Boolean)) {
    try {
      if ((await Deno.stat(join(dir, command))).isFile) return true;
    } catch {
      continue;
    }
  }
  return false;
}

async function runWithInput(tool: ClipboardTool, text: string): Promise<boolean> {
  try {
    const child = adoptChild(
      new Deno.Command(tool.command, { args: tool.args, stdin: "piped", stdout: "null", stderr: "null" })
        .spawn(),
      { group: false },
    );
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
    return (await child.status).success;
  } catch {
    return false;
  }
}
