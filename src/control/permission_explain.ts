/**
 * @module
 * `reasonix permission explain`: what the policy would decide for one bash command in this workspace
 * (its configured rules, remembered grants, and the rules given on the line), which rule or tier
 * decided, and why. The same decision code the gate runs, so the answer is the real one.
 */
import { loadConfig } from "../config/load.ts";
import { PERMISSION_ALIASES, PERMISSION_MODES } from "../config/schema.ts";
import type { PermissionMode } from "../config/types.ts";
import { loadPermissionGrants } from "../config/permission_grants.ts";
import { ReasonixError } from "../lib/errors.ts";
import { parseBash } from "../permission/bash_parse.ts";
import { classifyBash } from "../permission/bash_classify.ts";
import { decide, type Decision } from "../permission/evaluate.ts";
import { parseRule, type Rule, RuleSyntaxError } from "../permission/rules.ts";
import type { AdminContext } from "./admin.ts";

export interface ExplainRequest {
  command: string;
  mode?: string;
  headless?: boolean;
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
  allowDynamicBash?: boolean;
}

export interface ExplainReport extends Decision {
  mode: PermissionMode;
  headless: boolean;
  command: string;
}

export async function explainPermission(ctx: AdminContext, request: ExplainRequest): Promise<ExplainReport> {
  const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  const mode = modeOf(request.mode) ?? config.permissions.mode;
  const headless = request.headless === true;
  const grants = await loadPermissionGrants(ctx.paths, ctx.workspace);
  const rules = {
    allow: [...config.permissions.allow.map((rule) => parseRule(rule)), ...grants.flatMap(storedRule)]
      .concat(lineRules(request.allow, "--allow")),
    ask: config.permissions.ask.map((rule) => parseRule(rule)).concat(lineRules(request.ask, "--ask")),
    deny: config.permissions.deny.map((rule) => parseRule(rule)).concat(lineRules(request.deny, "--deny")),
  };
  const roots = { root: ctx.workspace, extraWritable: config.sandbox.allowWrite };
  const judgement = classifyBash(await parseBash(request.command), roots);
  const decision = decide(
    {
      tool: "bash",
      readOnly: false,
      subjects: [request.command],
      bash: { command: request.command, judgement },
    },
    {
      mode,
      headless,
      rules,
      allowDynamicBash: request.allowDynamicBash === true || config.permissions.allowDynamicBash,
    },
  );
  return { ...decision, mode, headless, command: request.command };
}

/** A remembered grant that no longer reads grants nothing. */
function storedRule(text: string): Rule[] {
  try {
    return [parseRule(text)];
  } catch {
    return [];
  }
}

function modeOf(value: string | undefined): PermissionMode | undefined {
  if (value === undefined) return undefined;
  const mode = PERMISSION_ALIASES[value] ?? value;
  if ((PERMISSION_MODES as readonly string[]).includes(mode)) return mode as PermissionMode;
  throw new ReasonixError("usage.bad_mode", `Cannot use --mode "${value}": expected ask, auto, yolo or plan`);
}

function lineRules(rules: readonly string[] | undefined, flag: string): Rule[] {
  return (rules ?? []).map((text) => {
    try {
      return parseRule(text);
    } catch (error) {
      if (!(error instanceof RuleSyntaxError)) throw error;
      throw new ReasonixError(
        "usage.bad_rule",
        `Cannot read ${flag} ${JSON.stringify(text)}: ${error.message}`,
      );
    }
  });
}

/** The human-readable form: one line per field. */
export function formatExplanation(report: ExplainReport): string {
  const lines = [
    `decision: ${report.decision}`,
    `tier:     ${report.tier}`,
    `rule:     ${report.rule ?? "(none: the mode and tier decided)"}`,
    `class:    ${report.class}`,
    `reason:   ${report.reason}`,
    `mode:     ${report.mode}${report.headless ? " (headless)" : ""}`,
  ];
  if (report.decision !== "allow" && report.suggestedRule) lines.push(`grant:    ${report.suggestedRule}`);
  return lines.join("\n") + "\n";
}
