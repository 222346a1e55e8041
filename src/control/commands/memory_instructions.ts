/**
 * @module
 * `/memory instructions`: the instruction files a session starting now would load, in load order, with
 * their scope, their `@` imports and every refusal. Paths and names come from the repository, so they
 * are printed with their control characters made visible.
 */
import { escapeControls } from "../../lib/terminal_text.ts";
import { t } from "../../lib/i18n/mod.ts";
import type { InstructionEntry, LoadedInstructions } from "../../prompt/instructions.ts";
import type { ImportRecord } from "../../prompt/instruction_imports.ts";

export function formatInstructions(loaded: LoadedInstructions): string {
  if (loaded.entries.length === 0 && loaded.warnings.length === 0) return t("instructions.none");
  const lines = loaded.entries.length === 0 ? [] : [t("instructions.title")];
  loaded.entries.forEach((entry, i) => lines.push(...entryLines(entry, i + 1)));
  if (loaded.warnings.length > 0) {
    lines.push("", t("instructions.diagnostics"), ...loaded.warnings.map((w) => `  ${escapeControls(w)}`));
  }
  return lines.join("\n");
}

function entryLines(entry: InstructionEntry, n: number): string[] {
  const scope = t(`instructions.scope_${entry.scope}`);
  const status = t(`instructions.status_${entry.status}`);
  const size = entry.bytes > 0 ? `, ${t("memory.bytes", { n: entry.bytes })}` : "";
  return [
    `  ${n}. ${escapeControls(entry.label)}  ${scope}${size}, ${status}`,
    `     ${escapeControls(entry.path)}`,
    ...entry.imports.map(importLine),
  ];
}

function importLine(record: ImportRecord): string {
  const indent = "     " + "  ".repeat(record.depth);
  const what = record.status === "refused"
    ? t("instructions.import_refused", { reason: record.reason ?? "" })
    : t(`instructions.import_${record.status}`);
  return `${indent}@${escapeControls(record.spec)}  ${what}`;
}
