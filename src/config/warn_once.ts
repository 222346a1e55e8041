/**
 * @module
 * A warning marked `once` (an unknown key) is shown once per content of its file, not on every run:
 * the SHA-256 of the bytes last warned about is kept per file in `<state>/config-warnings.json`, never
 * in the user's config. A file read without such warnings is forgotten, so its old content warns again.
 */
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import type { Paths } from "./paths.ts";
import type { ConfigWarning, ResolvedConfig } from "./types.ts";

interface WarnedFiles {
  version: 1;
  /** Config file path → SHA-256 of the bytes whose warnings were shown. */
  files: Record<string, string>;
}

/** The warnings to show now; records the ones marked `once` as shown. */
export async function warningsToShow(
  paths: Paths,
  config: Pick<ResolvedConfig, "files" | "warnings">,
): Promise<ConfigWarning[]> {
  const state = await readState(paths.configWarningsFile);
  const shown = config.warnings.filter((w) => w.once === undefined || state.files[w.file] !== w.once);
  const next: Record<string, string> = { ...state.files };
  for (const file of config.files) delete next[file];
  for (const warning of config.warnings) if (warning.once) next[warning.file] = warning.once;
  if (JSON.stringify(next) !== JSON.stringify(state.files)) {
    const text = JSON.stringify({ version: 1, files: next } satisfies WarnedFiles, null, 2) + "\n";
    // Unrecorded, the warning only shows again next time.
    await writeFileAtomic(paths.configWarningsFile, text, { mkdirs: true, staged: true }).catch(() => {});
  }
  return shown;
}

async function readState(file: string): Promise<WarnedFiles> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(file));
    if (parsed?.version === 1 && typeof parsed.files === "object" && parsed.files !== null) return parsed;
  } catch {
    // Missing or unreadable: nothing was shown yet.
  }
  return { version: 1, files: {} };
}
