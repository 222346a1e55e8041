import { createHash } from "node:crypto";
import { basename, join, resolve } from "node:path";

const MAX_SLUG_LENGTH = 40;

/** `<sessionsDir>/<basename-slug>-<first 12 hex of sha256(abs workspace)>` */
export function workspaceDir(sessionsDir: string, workspace: string): string {
  const abs = resolve(workspace);
  const hash = createHash("sha256").update(abs).digest("hex").slice(0, 12);
  return join(sessionsDir, `${slugify(basename(abs))}-${hash}`);
}

function slugify(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9._]+/g, "-").replace(/^[-.]+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH);
  return slug === "" ? "workspace" : slug;
}
