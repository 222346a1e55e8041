/**
 * @module
 * The permission decision (pure): deny rules, then ask rules, then the mode, exact grants, allow rules,
 * and the fallback (readers allow, except web_fetch to a new host in ask mode; writers follow the mode). The result says which rule or tier
 * decided and why, and which rule "always allow" would remember.
 */
import type { PermissionMode } from "../config/types.ts";
import type { BashJudgement, Tier } from "./bash_classify.ts";
import { globMatches, type Rule } from "./rules.ts";

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
}

export interface CallFacts {
  tool: string;
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
  /** The narrowest rule "always allow" would remember; null when only this exact call can be granted. */
  suggestedRule: string | null;
  /** Set when the decision was "ask" but nobody can answer (headless). */
  unanswerable?: true;
}

export function decide(call: CallFacts, policy: Policy): Decision {
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
  if (denied) {
    return {
      ...base,
      decision: "deny",
      rule: denied.source,
      reason: `the deny rule "${denied.source}" matches`,
    };
  }
  const asked = policy.rules.ask.find((rule) => toolRuleHits(rule, call, "any"));
  if (asked && policy.mode !== "yolo") {
    return { ...base, decision: "ask", rule: asked.source, reason: `the ask rule "${asked.source}" matches` };
  }
  if (policy.mode === "yolo") {
    return {
      ...base,
      decision: "allow",
      rule: null,
      reason: "yolo mode allows every call no deny rule matches",
    };
  }
  const allowed = policy.rules.allow.find((rule) => toolRuleHits(rule, call, "all"));
  if (allowed) {
    return {
      ...base,
      decision: "allow",
      rule: allowed.source,
      reason: `the allow rule "${allowed.source}" matches`,
    };
  }
  if (call.webHost !== undefined && policy.mode === "ask") {
    const reason = `"${call.tool}" would send a request to "${call.webHost}", a host no rule allows yet`;
    return { ...base, decision: "ask", rule: null, reason };
  }
  if (call.readOnly) return { ...base, decision: "allow", rule: null, reason: `"${call.tool}" only reads` };
  if (policy.mode === "auto") {
    return { ...base, decision: "allow", rule: null, reason: `auto mode allows "${call.tool}"` };
  }
  return { ...base, decision: "ask", rule: null, reason: `"${call.tool}" changes files or state` };
}

function toolRuleHits(rule: Rule, call: CallFacts, need: "any" | "all"): boolean {
  if (!rule.tools.includes(call.tool)) return false;
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
  const base = { tier: judgement.tier, suggestedRule: suggestBashRule(line, judgement) };
  const bashRules = (rules: readonly Rule[]) => rules.filter((rule) => rule.tools.includes(call.tool));
  const denied = bashRules(policy.rules.deny).find((rule) => lineHit(rule, line, judgement));
  if (denied) {
    return {
      ...base,
      decision: "deny",
      rule: denied.source,
      reason: `the deny rule "${denied.source}" matches`,
    };
  }
  const asked = bashRules(policy.rules.ask).find((rule) => lineHit(rule, line, judgement));
  if (asked && policy.mode !== "yolo") {
    return { ...base, decision: "ask", rule: asked.source, reason: `the ask rule "${asked.source}" matches` };
  }
  if (policy.mode === "yolo") {
    return {
      ...base,
      decision: "allow",
      rule: null,
      reason: "yolo mode allows every command no deny rule matches",
    };
  }
  const allow = bashRules(policy.rules.allow);
  const exact = allow.find((rule) => exactGrant(rule, line));
  if (exact) {
    return {
      ...base,
      decision: "allow",
      rule: exact.source,
      reason: `the exact grant "${exact.source}" matches`,
    };
  }
  if (judgement.tier === "tier2") {
    if (policy.mode === "auto" && policy.allowDynamicBash) {
      return {
        ...base,
        decision: "allow",
        rule: null,
        reason: `${judgement.reason}; allow_dynamic_bash lets auto mode run it`,
      };
    }
    return {
      ...base,
      decision: "ask",
      rule: null,
      reason: `${judgement.reason}, so a person must approve it`,
    };
  }
  if (judgement.tier === "read") return { ...base, decision: "allow", rule: null, reason: judgement.reason };
  const covered = coverage(allow, judgement);
  if (covered.rule) {
    return {
      ...base,
      decision: "allow",
      rule: covered.rule,
      reason: `the allow rule "${covered.rule}" covers every command`,
    };
  }
  const gap = covered.gap ?? judgement.reason;
  if (policy.mode === "auto" && judgement.outside === null) {
    return { ...base, decision: "allow", rule: null, reason: `${gap}; auto mode allows it` };
  }
  if (policy.mode === "auto") {
    return {
      ...base,
      decision: "ask",
      rule: null,
      reason: `${judgement.outside}, which auto mode does not allow alone`,
    };
  }
  return { ...base, decision: "ask", rule: null, reason: gap };
}

/** A deny or ask rule hits when it matches the line or any command in it, wrapped or nested. */
function lineHit(rule: Rule, line: string, judgement: BashJudgement): boolean {
  const matcher = rule.matcher;
  if (matcher.type === "any") return true;
  if (matcher.type === "literal") return matcher.text === line;
  const canonical = canonicalRule(rule);
  return judgement.commands.some((command) =>
    command.effective.some((argv) => {
      const named = withBaseName(argv);
      return argvMatches(rule, argv) || argvMatches(rule, named) ||
        argvMatches(canonical, canonicalFlags(named));
    })
  );
}

/** `rm -r -f`, `rm -fr` and `rm -rf` are one command to a deny rule: short flags merge and sort. */
function canonicalFlags(argv: readonly (string | null)[]): (string | null)[] {
  const out: (string | null)[] = [];
  for (const word of argv) {
    const previous = out.at(-1);
    if (
      word !== null && /^-[A-Za-z]+$/.test(word) && typeof previous === "string" &&
      /^-[A-Za-z]+$/.test(previous)
    ) {
      out[out.length - 1] = sortFlags(previous + word.slice(1));
    } else out.push(word !== null && /^-[A-Za-z]+$/.test(word) ? sortFlags(word) : word);
  }
  return out;
}

function sortFlags(cluster: string): string {
  return "-" + [...new Set(cluster.slice(1))].sort().join("");
}

function canonicalRule(rule: Rule): Rule {
  const matcher = rule.matcher;
  if (matcher.type !== "prefix" && matcher.type !== "exact") return rule;
  return { ...rule, matcher: { ...matcher, words: canonicalFlags(matcher.words) as string[] } };
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

function argvMatches(rule: Rule, argv: readonly (string | null)[]): boolean {
  const matcher = rule.matcher;
  switch (matcher.type) {
    case "any":
      return true;
    case "prefix":
      return matcher.words.length <= argv.length && matcher.words.every((word, i) => argv[i] === word);
    case "exact":
      return matcher.words.length === argv.length && matcher.words.every((word, i) => argv[i] === word);
    case "glob":
      return argv.every((word) => word !== null) && globMatches(matcher.pattern, argv.join(" "));
  }
  return false;
}

function withBaseName(argv: readonly (string | null)[]): (string | null)[] {
  const name = argv[0];
  if (!name || !name.includes("/")) return [...argv];
  return [name.slice(name.lastIndexOf("/") + 1), ...argv.slice(1)];
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
