/**
 * @module
 * The permission decision (pure): deny rules, then ask rules, then the mode, exact grants, allow rules,
 * and the fallback (readers allow, except web_fetch to a new host in ask mode; writers follow the mode). The result says which rule or tier
 * decided and why, and which rule "always allow" would remember.
 */
import type { PermissionMode } from "../config/types.ts";
import type { BashJudgement, JudgeClass, Tier } from "./bash_classify.ts";
import { argvMatches, lineHit, pathHit, possibleHit } from "./_bash_match.ts";
import { FILE_WRITERS, globMatches, type Rule } from "./rules.ts";
import { addressRange } from "../lib/ip_address.ts";

/** What decided: a rule, the mode, or (when the tier decided) the class of the line's judgement. */
export type DecisionClass =
  | JudgeClass
  | "deny-rule"
  | "ask-rule"
  | "path-rule"
  | "deny-unprovable"
  | "empty-command"
  | "exact-grant"
  | "allow-rule"
  | "mode"
  | "allow-dynamic-bash"
  | "outside-workspace"
  | "web-domain"
  | "plan-mode";

export interface PolicyRules {
  allow: readonly Rule[];
  ask: readonly Rule[];
  deny: readonly Rule[];
}

export interface Policy {
  mode: PermissionMode;
  /** Nobody can answer an approval: `ask` becomes a refusal that says how to allow the call. */
  headless: boolean;
  rules: PolicyRules;
  /** `[permissions] allow_dynamic_bash`: tier-2 bash runs without asking in auto mode. */
  allowDynamicBash: boolean;
  /** `[tools] web_fetch_allow_private` (`host` or `host:port`): private web_fetch hosts the user opened. */
  privateHosts?: readonly string[];
}

export interface CallFacts {
  tool: string;
  /** A group rules may name for the whole of it (`mcp__<server>` for an MCP server's tools). */
  group?: string;
  readOnly: boolean;
  /** What rules match against: paths relative to the workspace, a pattern; empty when the tool has none. */
  subjects: readonly string[];
  /** Present for bash: the command line and how it was judged. */
  bash?: { command: string; judgement: BashJudgement };
  /** Present for web_fetch: the host the request goes to; ask mode asks once per host. */
  webHost?: string;
}

export interface Decision {
  decision: "allow" | "ask" | "deny";
  tier: Tier;
  rule: string | null;
  reason: string;
  class: DecisionClass;
  /** The narrowest rule "always allow" would remember; null when only this exact call can be granted. */
  suggestedRule: string | null;
  /** Set when the decision was "ask" but nobody can answer (headless). */
  unanswerable?: true;
}

export function decide(call: CallFacts, policy: Policy): Decision {
  if (policy.mode === "plan") return decidePlan(call, policy);
  const decided = call.bash ? decideBash(call, call.bash, policy) : decideTool(call, policy);
  if (decided.decision !== "ask" || !policy.headless) return decided;
  return {
    ...decided,
    decision: "deny",
    reason: `${decided.reason}; it needs approval, but nobody can answer in a headless run: ` +
      howToAllow(decided, policy),
    unanswerable: true,
  };
}

/**
 * Plan mode is a hard boundary: a call that would change anything is refused whatever rule, grant or
 * earlier approval allows it; readers are judged as in ask mode (deny rules and ask rules still count).
 */
function decidePlan(call: CallFacts, policy: Policy): Decision {
  const decided = decide(call, { ...policy, mode: "ask" });
  const writes = call.bash ? call.bash.judgement.tier !== "read" : !call.readOnly;
  if (decided.decision === "deny" && decided.unanswerable === undefined) return decided;
  if (!writes) return decided;
  return {
    decision: "deny",
    tier: decided.tier,
    rule: null,
    class: "plan-mode",
    reason:
      `plan mode is on: "${call.tool}" ${
        call.bash ? "may change files or state" : "changes files or state"
      }` +
      ", and only reading tools run until the user approves a plan",
    suggestedRule: null,
  };
}

function howToAllow(decided: Decision, policy: Policy): string {
  const rule = decided.suggestedRule;
  const grant = rule ? ` or allow it with --allowed-tools '${rule}' (or [permissions] allow)` : "";
  if (decided.rule !== null) return `remove the ask rule "${decided.rule}", or pass --yolo`;
  if (decided.tier === "tier2") {
    const relax = policy.allowDynamicBash
      ? ""
      : ", or set [permissions] allow_dynamic_bash = true with --permission-mode auto";
    return `pass --yolo${grant}${relax}`;
  }
  if (policy.mode === "ask") return `pass --permission-mode auto (or --yolo)${grant}`;
  return `pass --yolo${grant}`;
}

function decideTool(call: CallFacts, policy: Policy): Decision {
  const tier: Tier = call.readOnly ? "read" : "write";
  const suggestedRule = call.webHost === undefined ? suggestToolRule(call) : webRule(call.webHost);
  const base = { tier, suggestedRule };
  const denied = policy.rules.deny.find((rule) => toolRuleHits(rule, call, "any"));
  if (denied) return ruled(base, "deny", denied);
  const asked = policy.rules.ask.find((rule) => toolRuleHits(rule, call, "any"));
  if (asked && policy.mode !== "yolo") return ruled(base, "ask", asked);
  if (policy.mode === "yolo") {
    return unruled(base, "allow", "mode", "yolo mode allows every call no deny rule matches");
  }
  const allowed = policy.rules.allow.find((rule) => toolRuleHits(rule, call, "all"));
  if (allowed) return ruled(base, "allow", allowed);
  if (call.webHost !== undefined && policy.mode === "ask") {
    const reason = `"${call.tool}" would send a request to "${call.webHost}", a host no rule allows yet` +
      (isClosedPrivateHost(call.webHost, policy.privateHosts ?? []) ? PRIVATE_NOTE : "");
    return unruled(base, "ask", "web-domain", reason);
  }
  if (call.readOnly) return unruled(base, "allow", "read-only", `"${call.tool}" only reads`);
  if (policy.mode === "auto") return unruled(base, "allow", "mode", `auto mode allows "${call.tool}"`);
  return unruled(base, "ask", "mode", `"${call.tool}" changes files or state`);
}

/** A decision no rule made (the mode, or what the call is). */
function unruled(
  base: Pick<Decision, "tier" | "suggestedRule">,
  decision: Decision["decision"],
  kind: Decision["class"],
  reason: string,
): Decision {
  return { ...base, decision, rule: null, class: kind, reason };
}

function ruled(
  base: Pick<Decision, "tier" | "suggestedRule">,
  decision: Decision["decision"],
  rule: Rule,
): Decision {
  const kind = decision === "deny" ? "deny-rule" : decision === "ask" ? "ask-rule" : "allow-rule";
  return {
    ...base,
    decision,
    rule: rule.source,
    class: kind,
    reason: `the ${decision} rule "${rule.source}" matches`,
  };
}

/** Approving such a host is not enough: the tool refuses it unless the user config lists it. */
const PRIVATE_NOTE = ` (a loopback, private or metadata address: web_fetch refuses it even when approved, ` +
  `unless [tools] web_fetch_allow_private in your user config lists it)`;

function isClosedPrivateHost(host: string, opened: readonly string[]): boolean {
  if (opened.some((entry) => entry.toLowerCase().replace(/:\d+$/, "") === host)) return false;
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const range = addressRange(host);
  return range !== null && range !== "public";
}

function toolRuleHits(rule: Rule, call: CallFacts, need: "any" | "all"): boolean {
  const named = rule.tools.includes(call.tool) ||
    (call.group !== undefined && rule.tools.includes(call.group));
  if (!named) return false;
  const matcher = rule.matcher;
  if (matcher.type === "any") return true;
  if (matcher.type !== "glob" || call.subjects.length === 0) return false;
  const hits = (subject: string) => globMatches(matcher.pattern, subject);
  return need === "any" ? call.subjects.some(hits) : call.subjects.every(hits);
}

function webRule(host: string): string | null {
  return /^[a-z0-9.\-[\]:_]+$/.test(host) ? `WebFetch(domain:${host})` : null;
}

function suggestToolRule(call: CallFacts): string | null {
  if (call.subjects.length === 0) return call.tool;
  if (call.subjects.length > 1 || /[*?()]/.test(call.subjects[0]!)) return null;
  return `${call.tool}(${call.subjects[0]})`;
}

function decideBash(call: CallFacts, bash: NonNullable<CallFacts["bash"]>, policy: Policy): Decision {
  const { judgement } = bash;
  const line = bash.command.trim();
  if (line === "") {
    return {
      decision: "deny",
      tier: judgement.tier,
      rule: null,
      class: "empty-command",
      reason: "the command is empty",
      suggestedRule: null,
    };
  }
  const base = { tier: judgement.tier, suggestedRule: suggestBashRule(line, judgement) };
  const refused = denyBash(call, bash, policy.rules.deny);
  if (refused) return { ...base, ...refused };
  const bashRules = (rules: readonly Rule[]) => rules.filter((rule) => rule.tools.includes(call.tool));
  const asked = bashRules(policy.rules.ask).find((rule) => lineHit(rule, line, judgement));
  if (asked && policy.mode !== "yolo") return ruled(base, "ask", asked);
  if (policy.mode === "yolo") {
    return unruled(base, "allow", "mode", "yolo mode allows every command no deny rule matches");
  }
  const allow = bashRules(policy.rules.allow);
  const exact = allow.find((rule) => exactGrant(rule, line));
  if (exact) {
    return {
      ...base,
      decision: "allow",
      rule: exact.source,
      class: "exact-grant",
      reason: `the exact grant "${exact.source}" matches`,
    };
  }
  const decided = { ...base, rule: null, class: judgement.class };
  if (judgement.tier === "tier2") {
    if (policy.mode === "auto" && policy.allowDynamicBash) {
      return {
        ...decided,
        decision: "allow",
        class: "allow-dynamic-bash",
        reason: `${judgement.reason}; allow_dynamic_bash lets auto mode run it`,
      };
    }
    return { ...decided, decision: "ask", reason: `${judgement.reason}, so a person must approve it` };
  }
  if (judgement.tier === "read") return { ...decided, decision: "allow", reason: judgement.reason };
  const covered = coverage(allow, judgement);
  if (covered.rule) {
    return {
      ...base,
      decision: "allow",
      rule: covered.rule,
      class: "allow-rule",
      reason: `the allow rule "${covered.rule}" covers every command`,
    };
  }
  const gap = covered.gap ?? judgement.reason;
  if (policy.mode === "auto" && judgement.outside === null) {
    return { ...decided, decision: "allow", class: "mode", reason: `${gap}; auto mode allows it` };
  }
  if (policy.mode === "auto") {
    return {
      ...decided,
      decision: "ask",
      class: "outside-workspace",
      reason: `${judgement.outside}, which auto mode does not allow alone`,
    };
  }
  return { ...decided, decision: "ask", reason: gap };
}

/**
 * Deny rules, in every mode: bash rules that match a spelling of a command, `Edit(...)` rules that match
 * a file the line writes, then either kind that the policy cannot rule out.
 */
function denyBash(
  call: CallFacts,
  bash: NonNullable<CallFacts["bash"]>,
  deny: readonly Rule[],
): Pick<Decision, "decision" | "rule" | "class" | "reason"> | null {
  const { judgement } = bash;
  const line = bash.command.trim();
  const commandRules = deny.filter((rule) => rule.tools.includes(call.tool));
  const pathRules = deny.filter((rule) => rule.tools.includes(FILE_WRITERS[0]!));
  const denied = commandRules.find((rule) => lineHit(rule, line, judgement));
  if (denied) {
    return {
      decision: "deny",
      rule: denied.source,
      class: "deny-rule",
      reason: `the deny rule "${denied.source}" matches`,
    };
  }
  for (const rule of pathRules) {
    const path = judgement.writePaths.find((written) => written !== null && pathHit(rule, written));
    if (path !== undefined) {
      return {
        decision: "deny",
        rule: rule.source,
        class: "path-rule",
        reason: `the deny rule "${rule.source}" matches "${path}", which the command writes`,
      };
    }
  }
  for (const rule of commandRules) {
    const why = possibleHit(rule, line, judgement);
    if (why) return unprovable(rule, why);
  }
  const unknown = judgement.writePaths.includes(null);
  const pathRule = pathRules.find((rule) =>
    unknown || judgement.opaque.length > 0 || rule.matcher.type === "any"
  );
  if (pathRule && (unknown || judgement.opaque.length > 0)) {
    return unprovable(
      pathRule,
      unknown ? "the command writes a file named only when the shell runs" : judgement.opaque[0]!,
    );
  }
  return null;
}

function unprovable(rule: Rule, why: string): Pick<Decision, "decision" | "rule" | "class" | "reason"> {
  return {
    decision: "deny",
    rule: rule.source,
    class: "deny-unprovable",
    reason: `the deny rule "${rule.source}" may match and cannot be ruled out: ${why}`,
  };
}

function exactGrant(rule: Rule, line: string): boolean {
  const matcher = rule.matcher;
  if (matcher.type === "literal") return matcher.text === line;
  return matcher.type === "exact" && matcher.words.join(" ") === line;
}

/**
 * Every command must be read-only or matched by an allow rule; file redirects and tier-1 lines (which
 * expand at run time) are covered only by the whole `Bash` family or an exact grant.
 */
function coverage(
  allow: readonly Rule[],
  judgement: BashJudgement,
): { rule: string | null; gap: string | null } {
  const family = allow.find((rule) => rule.matcher.type === "any")?.source ?? null;
  if (judgement.tier === "tier1") return { rule: family, gap: null };
  const used: string[] = [];
  for (const command of judgement.commands) {
    if (command.tier === "read") continue;
    const rule = allow.find((candidate) =>
      candidate.matcher.type !== "literal" && argvMatches(candidate, command.argv)
    );
    if (!rule) return { rule: null, gap: command.reason };
    used.push(rule.source);
  }
  if (judgement.writeRedirects.length > 0) {
    if (!family) return { rule: null, gap: `the redirect "${judgement.writeRedirects[0]}" writes a file` };
    used.push(family);
  }
  return { rule: used[0] ?? null, gap: null };
}

function suggestBashRule(line: string, judgement: BashJudgement): string | null {
  const open = judgement.commands.filter((command) => command.tier !== "read");
  if (judgement.tier === "write" && open.length === 1 && judgement.writeRedirects.length === 0) {
    const argv = open[0]!.argv;
    if (argv.every((word) => word !== null)) return `Bash(${argv.map(quoteWord).join(" ")})`;
  }
  return `Bash=${line}`;
}

function quoteWord(word: string | null): string {
  const text = word ?? "";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `"${text.replace(/(["\\])/g, "\\$1")}"`;
}
