/**
 * @module
 * `reasonix permission explain`: renders control/permission_explain.ts as text or one JSON object.
 */
import { adminContext, explainPermission, formatExplanation } from "../../control/mod.ts";

export interface ExplainOptions {
  mode?: string;
  headless?: boolean;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  allowDynamicBash?: boolean;
  json?: boolean;
  dir?: string;
}

export async function permissionExplainCmd(words: string[], opts: ExplainOptions): Promise<void> {
  const report = await explainPermission(await adminContext(opts.dir), {
    command: words.join(" "),
    ...(opts.mode ? { mode: opts.mode } : {}),
    headless: Boolean(opts.headless),
    allow: opts.allow ?? [],
    ask: opts.ask ?? [],
    deny: opts.deny ?? [],
    allowDynamicBash: Boolean(opts.allowDynamicBash),
  });
  if (opts.json) {
    const { decision, tier, rule, reason, suggestedRule, mode, headless, command } = report;
    const json = {
      decision,
      tier,
      rule,
      reason,
      suggestedRule,
      mode,
      headless,
      command,
      class: report.class,
    };
    console.log(JSON.stringify(json));
  } else await Deno.stdout.write(new TextEncoder().encode(formatExplanation(report)));
}
