/**
 * @module
 * Thin renderers for the admin commands; the behaviour is in control/admin.ts.
 */
import {
  adminContext,
  compactRatio,
  configFileEntries,
  configGet,
  configKeyReport,
  configSet,
  explainSessionCache,
  formatCacheReport,
  formatConfigFiles,
  formatKeyReport,
  trustProviderKey,
} from "../../control/mod.ts";

type DirOption = { dir?: string };

export async function configGetCmd(key: string, opts: DirOption): Promise<void> {
  const value = await configGet(await adminContext(opts.dir), key);
  console.log(typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

export async function configSetCmd(
  key: string,
  value: string,
  opts: DirOption & { global?: boolean },
): Promise<void> {
  const file = await configSet(await adminContext(opts.dir), {
    key,
    value,
    global: Boolean(opts.global),
  });
  console.log(`Set ${key} in ${file}`);
}

export async function compactRatioCmd(value: string | undefined, opts: DirOption & { local?: boolean }) {
  const ctx = await adminContext(opts.dir);
  console.log(
    await compactRatio(ctx, { ...(value === undefined ? {} : { value }), local: Boolean(opts.local) }),
  );
}

/** The files first, so they print even when one of them does not load. */
export async function configPathCmd(opts: DirOption): Promise<void> {
  const ctx = await adminContext(opts.dir);
  console.log(formatConfigFiles(await configFileEntries(ctx), ctx.paths.envFile));
  const keys = formatKeyReport(await configKeyReport(ctx));
  if (keys !== "") console.log(keys);
}

export async function trustKeyCmd(provider: string, opts: DirOption): Promise<void> {
  console.log(await trustProviderKey(await adminContext(opts.dir), provider));
}

export async function cacheExplainCmd(
  session: string | undefined,
  opts: DirOption & { json?: boolean },
): Promise<void> {
  const ctx = await adminContext(opts.dir);
  const report = await explainSessionCache({ ...ctx, ...(session ? { session } : {}) });
  console.log(
    opts.json
      ? JSON.stringify({ schema_version: 1, command: "cache.explain", ...report })
      : formatCacheReport(report),
  );
}
