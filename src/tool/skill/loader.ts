/**
 * @module
 * Finds the skills of a session, winner first: the workspace's `.reasonix`, `.agents`, `.agent` and
 * `.claude` skill folders, `[skills].paths`, `<home>/skills`, then the built-ins. A skill is
 * `<name>/SKILL.md` (looked for down to `max_depth` folders) or a flat `<name>.md` at a root's top. A
 * file that cannot be read as a skill is skipped with a diagnostic naming it; a name found twice keeps
 * the first and reports both paths. Project files are read only inside the workspace, and no file is read
 * from a hidden path (a symlink to `~/.ssh` is refused).
 */
import { dirname, join, relative } from "node:path";
import type { SkillsConfig } from "../../config/types.ts";
import { readConfined } from "../../lib/confined_read.ts";
import { builtinSkills } from "./builtin.ts";
import type { Skill, SkillDiagnostic, SkillSource } from "./skill.ts";

/** The folders below the workspace that hold its skills, winner first. */
export const PROJECT_SKILL_DIRS = [".reasonix", ".agents", ".agent", ".claude"];
const MAX_SKILL_BYTES = 256 * 1024;

export interface SkillRoot {
  dir: string;
  source: SkillSource;
}

export interface SkillLoadOptions {
  workspace: string;
  /** Reasonix's home (`<home>/skills`). */
  home: string;
  config: SkillsConfig;
  /** Paths no skill is read from (the workspace's `forbidRead`). */
  hidden: readonly string[];
}

export interface LoadedSkills {
  /** Winners, sorted by name; disabled ones left out. */
  skills: Skill[];
  diagnostics: SkillDiagnostic[];
  roots: SkillRoot[];
}

export function skillRoots(options: Pick<SkillLoadOptions, "workspace" | "home" | "config">): SkillRoot[] {
  return [
    ...PROJECT_SKILL_DIRS.map((dir) => ({ dir: join(options.workspace, dir, "skills"), source: "project" })),
    ...options.config.paths.map((dir) => ({ dir, source: "config" })),
    { dir: join(options.home, "skills"), source: "home" },
  ] as SkillRoot[];
}

export async function loadSkills(options: SkillLoadOptions): Promise<LoadedSkills> {
  const roots = skillRoots(options).filter((root) => !excluded(root.dir, options.config.excludedPaths));
  const found: Skill[] = [];
  const diagnostics: SkillDiagnostic[] = [];
  for (const root of roots) {
    for (const file of await skillFiles(root.dir, options.config)) {
      const read = await readSkill(file, root, options);
      if (read === null) continue;
      if ("message" in read) diagnostics.push(read);
      else found.push(read);
    }
  }
  found.push(...builtinSkills());
  const winners = new Map<string, Skill>();
  for (const skill of found) {
    const winner = winners.get(skill.name);
    if (winner === undefined) winners.set(skill.name, skill);
    else diagnostics.push(duplicate(skill, winner));
  }
  const disabled = new Set(options.config.disabled);
  const skills = [...winners.values()].filter((skill) => !disabled.has(skill.name))
    .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return { skills, diagnostics, roots };
}

function duplicate(loser: Skill, winner: Skill): SkillDiagnostic {
  return {
    path: loser.path,
    message: `skill "${loser.name}" is also defined in ${winner.path}, which wins; this one is not used`,
  };
}

interface SkillFile {
  path: string;
  fallbackName: string;
}

/** `<name>.md` at the top of `root`, and `SKILL.md` files down to `maxDepth` folders, in name order. */
async function skillFiles(root: string, config: SkillsConfig): Promise<SkillFile[]> {
  const files: SkillFile[] = [];
  const walk = async (dir: string, depth: number) => {
    for (const entry of await sortedEntries(dir)) {
      const path = join(dir, entry.name);
      if (excluded(path, config.excludedPaths)) continue;
      if (entry.isFile && depth === 0 && isFlatSkill(entry.name)) {
        files.push({ path, fallbackName: entry.name.slice(0, -3) });
      } else if (entry.isDirectory && depth < config.maxDepth) {
        const skill = join(path, "SKILL.md");
        if (await isFile(skill)) files.push({ path: skill, fallbackName: entry.name });
        else await walk(path, depth + 1);
      }
    }
  };
  await walk(root, 0);
  return files;
}

function isFlatSkill(name: string): boolean {
  return name.endsWith(".md") && !/^(readme|skill)\.md$/i.test(name);
}

async function readSkill(
  file: SkillFile,
  root: SkillRoot,
  options: SkillLoadOptions,
): Promise<Skill | SkillDiagnostic | null> {
  // Reasonix's home is hidden from tools, yet its skills folder is read here: that root is confined to
  // itself instead, so a symlink in it still cannot reach the home's other files.
  const home = root.source === "home";
  const read = await readConfined(file.path, {
    hidden: home ? options.hidden.filter((path) => !inside(root.dir, path)) : options.hidden,
    maxBytes: MAX_SKILL_BYTES,
    ...(root.source === "project" ? { roots: [options.workspace] } : home ? { roots: [root.dir] } : {}),
  });
  if (read.kind === "missing") return null;
  if (read.kind === "skipped") return { path: file.path, message: `skipped: ${read.reason}` };
  if (read.kind === "refused") {
    const where = read.reason === "hidden"
      ? "to a hidden path"
      : root.source === "project"
      ? "outside the workspace"
      : "outside its skills folder";
    return { path: file.path, message: `not read: it resolves ${where}` };
  }
  // The YAML parser loads only when there is a skill file to read.
  const { parseSkillFile, SkillFileError } = await import("./frontmatter.ts");
  try {
    const skill = parseSkillFile(read.text, {
      path: file.path,
      fallbackName: file.fallbackName,
      source: root.source,
    });
    return file.path.endsWith("/SKILL.md") ? { ...skill, folder: dirname(read.real) } : skill;
  } catch (error) {
    if (!(error instanceof SkillFileError)) throw error;
    return {
      path: file.path,
      ...(error.line ? { line: error.line } : {}),
      message: `skipped: ${error.message}`,
    };
  }
}

function excluded(path: string, excludedPaths: readonly string[]): boolean {
  return excludedPaths.some((dir) => inside(path, dir));
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
}

async function sortedEntries(
  dir: string,
): Promise<{ name: string; isFile: boolean; isDirectory: boolean }[]> {
  const entries: { name: string; isFile: boolean; isDirectory: boolean }[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name.startsWith(".")) continue;
      // A symlinked skill folder (a common way to share skills) is followed; the depth bounds loops.
      const info = entry.isSymlink ? await Deno.stat(join(dir, entry.name)).catch(() => null) : entry;
      if (info) entries.push({ name: entry.name, isFile: info.isFile, isDirectory: info.isDirectory });
    }
  } catch {
    return [];
  }
  return entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
