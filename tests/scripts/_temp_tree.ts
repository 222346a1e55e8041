/**
 * @module
 * A temp directory holding the given files (paths relative to it), removed after `fn`.
 */
import { dirname, join } from "node:path";

export async function withTempTree(
  prefix: string,
  files: Record<string, string>,
  fn: (root: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix });
  try {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(dirname(join(root, path)), { recursive: true });
      await Deno.writeTextFile(join(root, path), text);
    }
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
