/**
 * @module
 * `reasonix config path` and doctor's "config keys" check: which config files are in use (a legacy
 * global file included), the Go Reasonix keys they set that are accepted but not used yet, and the
 * unknown keys. This is where those keys are listed; a run only warns about unknown keys, once per
 * file content (config/warn_once.ts).
 */
import { resolve } from "node:path";
import { loadConfig, PROJECT_CONFIG_FILE } from "../config/load.ts";
import type { ConfigKeyNote, ConfigWarning, ResolvedConfig } from "../config/types.ts";
import type { AdminContext } from "./admin.ts";
import type { DoctorCheck } from "./doctor.ts";

export interface ConfigFileEntry {
  role: "legacy" | "global" | "project";
  file: string;
  exists: boolean;
}

/** The files the layers read, lowest precedence first; a legacy file only when one exists. */
export async function configFileEntries(ctx: AdminContext): Promise<ConfigFileEntry[]> {
  const entries: ConfigFileEntry[] = [];
  for (const file of ctx.paths.legacyConfigFiles) {
    if (await isFile(file)) {
      entries.push({ role: "legacy", file, exists: true });
      break;
    }
  }
  const global = ctx.paths.globalConfigFile;
  entries.push({ role: "global", file: global, exists: await isFile(global) });
  const project = resolve(ctx.workspace, PROJECT_CONFIG_FILE);
  entries.push({ role: "project", file: project, exists: await isFile(project) });
  return entries;
}

export function formatConfigFiles(entries: readonly ConfigFileEntry[], envFile: string): string {
  const globalExists = entries.some((entry) => entry.role === "global" && entry.exists);
  const lines = entries.map((entry) => {
    const label = `${entry.role}:`.padEnd(9);
    if (entry.role === "legacy") {
      const note = globalExists ? "also read, below the global file" : "the global file in use";
      return `${label}${entry.file}  (${note})`;
    }
    return `${label}${entry.file}${entry.exists ? "" : "  (not found)"}`;
  });
  return [...lines, `${"keys:".padEnd(9)}${envFile}`].join("\n");
}

export interface ConfigKeyReport {
  unused: ConfigKeyNote[];
  unknown: ConfigWarning[];
}

export async function configKeyReport(ctx: AdminContext): Promise<ConfigKeyReport> {
  return keyReport(await loadConfig({ workspace: ctx.workspace, paths: ctx.paths }));
}

export function keyReport(config: ResolvedConfig): ConfigKeyReport {
  return { unused: config.unused, unknown: config.warnings.filter((w) => w.once !== undefined) };
}

/** One line per key, `file:line:col  key`; empty when every key is used. */
export function formatKeyReport(report: ConfigKeyReport): string {
  const at = (item: { file: string; line: number; column: number }) =>
    `  ${item.file}:${item.line}:${item.column}  `;
  const sections: string[] = [];
  if (report.unused.length > 0) {
    sections.push(
      `Accepted, not used yet (${report.unused.length}):`,
      ...report.unused.map((note) => at(note) + note.key),
    );
  }
  if (report.unknown.length > 0) {
    sections.push(
      `Unknown (${report.unknown.length}):`,
      ...report.unknown.map((warning) => at(warning) + warning.message),
    );
  }
  return sections.join("\n");
}

/** Doctor's summary: the keys without their provider index, each once; the full list for `--json`. */
export function configKeysCheck(config: ResolvedConfig): DoctorCheck {
  const name = "config keys";
  const { unused, unknown } = keyReport(config);
  const list = [
    ...unused.map((note) => `${note.file}:${note.line}:${note.column}: ${note.key} (accepted, not used yet)`),
    ...unknown.map((w) => `${w.file}:${w.line}:${w.column}: ${w.message}`),
  ];
  if (list.length === 0) {
    const files = config.files.length;
    return { name, status: "ok", detail: files === 0 ? "no config file" : "nothing unknown or unused" };
  }
  const keys = [...new Set(unused.map((note) => note.key.replace(/^providers\[\d+\]/, "providers[]")))];
  const parts = [
    ...(unused.length > 0 ? [`accepted, not used yet: ${keys.join(", ")}`] : []),
    ...(unknown.length > 0 ? [`${unknown.length} unknown`] : []),
  ];
  return {
    name,
    status: unknown.length > 0 ? "warn" : "ok",
    detail: `${parts.join("; ")} (where: \`reasonix config path\`)`,
    list,
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
