/**
 * @module
 * Thin renderers for the admin commands; the behaviour is in control/admin.ts.
 */
import {
  adminContext,
  configFileEntries,
  configGet,
  configKeyReport,
  configSet,
  explainError,
  explainSessionCache,
  formatCacheReport,
  formatConfigFiles,
  formatKeyReport,
  trustProviderKey,
} from "../../control/mod.ts";
import { isBrokenPipe } from "../../lib/errors.ts";

type DirOption = { dir?: string };

export async function guarded(body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (error) {
    if (isBrokenPipe(error)) throw error;
    const info = explainError(error);
    console.error(`error: ${info.message}`);
    if (info.hint) console.error(`hint: ${info.hint}`);
    return info.code.startsWith("config") || info.code.startsWith("usage") ? 2 : 1;
  }
}

export function configGetCmd(key: string, opts: DirOption): Promise<number> {
  return guarded(async () => {
    const value = await configGet(await adminContext(opts.dir), key);
    console.log(typeof value === "string" ? value : JSON.stringify(value, null, 2));
  });
}

export function configSetCmd(
  key: string,
  value: string,
  opts: DirOption & { global?: boolean },
): Promise<number> {
  return guarded(async () => {
    const file = await configSet(await adminContext(opts.dir), {
      key,
      value,
      global: Boolean(opts.global),
    });
    console.log(`Set ${key} in ${file}`);
  });
}

/** The files first, so they print even when one of them does not load. */
export function configPathCmd(opts: DirOption): Promise<number> {
  return guarded(async () => {
    const ctx = await adminContext(opts.dir);
    console.log(formatConfigFiles(await configFileEntries(ctx), ctx.paths.envFile));
    const keys = formatKeyReport(await configKeyReport(ctx));
    if (keys !== "") console.log(keys);
  });
}

export function trustKeyCmd(provider: string, opts: DirOption): Promise<number> {
  return guarded(async () => {
    console.log(await trustProviderKey(await adminContext(opts.dir), provider));
  });
}

export function cacheExplainCmd(
  session: string | undefined,
  opts: DirOption & { json?: boolean },
): Promise<number> {
  return guarded(async () => {
    const ctx = await adminContext(opts.dir);
    const report = await explainSessionCache({ ...ctx, ...(session ? { session } : {}) });
    console.log(
      opts.json
        ? JSON.stringify({ schema_version: 1, command: "cache.explain", ...report })
        : formatCacheReport(report),
    );
  });
}
