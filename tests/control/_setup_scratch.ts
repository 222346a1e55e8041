/**
 * @module
 * A scratch Reasonix home and workspace for the setup tests, with the paths that point into them.
 */
import { type Paths, resolvePaths } from "../../src/config/paths.ts";

export interface Scratch {
  home: string;
  workspace: string;
  paths: Paths;
  cleanup(): Promise<unknown>;
}

export async function scratch(): Promise<Scratch> {
  const home = await Deno.makeTempDir({ prefix: "reasonix-setup-home-" });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-setup-ws-" }));
  const paths = resolvePaths({ REASONIX_HOME: home });
  return {
    home,
    workspace,
    paths,
    cleanup: () => Promise.all([home, workspace].map((d) => Deno.remove(d, { recursive: true }))),
  };
}
