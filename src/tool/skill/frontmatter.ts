/**
 * @module
 * Reads one skill file: `---` YAML frontmatter, then the Markdown body. Only the keys a skill has are
 * accepted, each with its type; anything else is an error naming the file and the line.
 */
import { LineCounter, parseDocument, stringify } from "yaml";
import { z } from "zod";
import { type Skill, SKILL_NAME, type SkillSource } from "./skill.ts";
import { ourToolName, splitToolList } from "./claude_tools.ts";

export class SkillFileError extends SyntaxError {
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(message);
    this.name = "SkillFileError";
    this.line = line;
  }
}

const tools = z.union([z.string(), z.array(z.string())]);
const FIELDS = z.strictObject({
  name: z.string().regex(SKILL_NAME, "lower-case letters, digits, - and _ (at most 64)").optional(),
  description: z.string({ error: (issue) => issue.input === undefined ? "is missing" : "must be text" })
    .trim().min(1, "is empty").max(1024),
  invocation: z.enum(["auto", "manual"]).optional(),
  runAs: z.enum(["inline", "subagent"]).optional(),
  model: z.string().trim().min(1).optional(),
  effort: z.string().trim().min(1).optional(),
  "read-only": z.boolean().optional(),
  "allowed-tools": tools.optional(),
  color: z.string().optional(),
  // Claude Code's keys, accepted so its skills load unchanged.
  license: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  "argument-hint": z.string().optional(),
  "disable-model-invocation": z.boolean().optional(),
  "user-invocable": z.boolean().optional(),
});

/** `fallbackName`: the directory of a `SKILL.md` or the stem of a flat `<name>.md`. */
export function parseSkillFile(
  text: string,
  at: { path: string; fallbackName: string; source: SkillSource },
): Skill {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const head = /^---\n([\s\S]*?)\n?---[ \t]*(?:\n|$)/.exec(normalized);
  if (!head) throw new SkillFileError("it does not start with a --- frontmatter block", 1);
  const fields = frontmatterFields(head[1]!);
  const body = normalized.slice(head[0].length).trim();
  if (body === "") throw new SkillFileError("its body (after the frontmatter) is empty");
  const name = fields.name ?? at.fallbackName.toLowerCase();
  if (!SKILL_NAME.test(name)) {
    throw new SkillFileError(`"${name}" is no skill name: use lower-case letters, digits, - and _`, 2);
  }
  const allowed = fields["allowed-tools"];
  const manual = fields.invocation === "manual" || fields["disable-model-invocation"] === true;
  return {
    name,
    description: fields.description.replace(/\s+/g, " "),
    invocation: manual ? "manual" : "auto",
    runAs: fields.runAs ?? "inline",
    ...(fields.model ? { model: fields.model } : {}),
    ...(fields.effort ? { effort: fields.effort } : {}),
    readOnly: fields["read-only"] ?? false,
    ...(allowed === undefined ? {} : { allowedTools: toolList(allowed) }),
    ...(fields.color ? { color: fields.color } : {}),
    body,
    source: at.source,
    path: at.path,
  };
}

type Fields = z.infer<typeof FIELDS>;

function frontmatterFields(yaml: string): Fields {
  const lines = new LineCounter();
  const document = parseDocument(yaml, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const error = document.errors[0];
  if (error) {
    const line = lines.linePos(error.pos[0]).line + 1;
    throw new SkillFileError(`its frontmatter is not valid YAML: ${error.message.split("\n")[0]}`, line);
  }
  const data = document.toJS() ?? {};
  const checked = FIELDS.safeParse(data);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0]!;
  const key = String(issue.path[0] ?? (issue.code === "unrecognized_keys" ? issue.keys[0] : "") ?? "");
  return fail(key, issue.code === "unrecognized_keys" ? "is not a skill key" : issue.message, yaml);
}

function fail(key: string, message: string, yaml: string): never {
  const index = yaml.split("\n").findIndex((line) => line.startsWith(`${key}:`));
  const what = key === "" ? message : `"${key}" ${message}`;
  throw new SkillFileError(`its frontmatter is wrong: ${what}`, index >= 0 ? index + 2 : undefined);
}

/** `Read, Grep` or `[read_file, grep]`. */
function toolList(value: string | string[]): string[] {
  const items = Array.isArray(value) ? value.flatMap(splitToolList) : splitToolList(value);
  return [...new Set(items.map(ourToolName))];
}

/** The frontmatter keys a written skill file may hold, in the order they are written. */
export interface SkillFileFields {
  name: string;
  description: string;
  runAs?: "inline" | "subagent";
  model?: string;
  effort?: string;
  "read-only"?: boolean;
  "allowed-tools"?: readonly string[];
}

/** A skill file as `reasonix subagent create|edit` writes it; `parseSkillFile` reads it back unchanged. */
export function renderSkillFile(fields: SkillFileFields, body: string): string {
  const ordered = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return `---\n${stringify(ordered, { lineWidth: 0 })}---\n${body.trim()}\n`;
}
