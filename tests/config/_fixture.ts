import { dirname, join } from "node:path";
import { type Paths, resolvePaths } from "../../src/config/paths.ts";

export interface Fixture {
  root: string;
  userHome: string;
  workspace: string;
  paths: Paths;
  write(path: string, text: string): Promise<string>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A fake user home, workspace and env under one temp dir; the paths come from `env`, never Deno.env. */
export async function fixture(env: Record<string, string> = {}): Promise<Fixture> {
  const root = await Deno.makeTempDir({ prefix: "reasonix-config-" });
  const userHome = join(root, "user");
  const workspace = join(root, "ws");
  await Deno.mkdir(userHome, { recursive: true });
  await Deno.mkdir(workspace, { recursive: true });
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) resolved[key] = value.replace("$ROOT", root);
  const paths = resolvePaths({ HOME: userHome, ...resolved }, "linux");
  return {
    root,
    userHome,
    workspace,
    paths,
    async write(path: string, text: string): Promise<string> {
      await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.writeTextFile(path, text);
      return path;
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}
