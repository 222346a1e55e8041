import assert from "node:assert/strict";
import { callFacts } from "../../src/permission/facts.ts";
import { decide, type Decision, type Policy } from "../../src/permission/evaluate.ts";
import { compileRules } from "../../src/permission/rules.ts";
import { CORPUS, CORPUS_ROOTS, CORPUS_RULES } from "./bash_corpus.ts";

const RULES = compileRules(CORPUS_RULES);
const CODE: Readonly<Record<Decision["decision"], string>> = { allow: "+", ask: "?", deny: "-" };
const SETTINGS: readonly Pick<Policy, "mode" | "headless">[] = [
  { mode: "ask", headless: false },
  { mode: "auto", headless: false },
  { mode: "yolo", headless: false },
  { mode: "auto", headless: true },
];

async function judge(command: string, options: Partial<Policy> = {}) {
  const facts = await callFacts({ name: "bash", readOnly: false }, { command }, CORPUS_ROOTS);
  return (setting: Pick<Policy, "mode" | "headless">) =>
    decide(facts, { rules: RULES, allowDynamicBash: false, ...options, ...setting });
}

Deno.test("bash corpus: every command gets exactly its expected tier and decisions", async () => {
  assert.ok(CORPUS.length >= 150, `the corpus has ${CORPUS.length} rows`);
  assert.equal(new Set(CORPUS.map((row) => row[0])).size, CORPUS.length, "no duplicate rows");
  const mismatches: string[] = [];
  for (const [command, tier, expected] of CORPUS) {
    const at = await judge(command);
    const decisions = SETTINGS.map(at);
    const actual = decisions.map((decision) => CODE[decision.decision]).join("");
    const actualTier = decisions[0]!.tier;
    if (actual !== expected || actualTier !== tier) {
      mismatches.push(
        `${JSON.stringify(command)}: expected ${tier} ${expected}, got ${actualTier} ${actual}`,
      );
    }
  }
  assert.deepEqual(mismatches, []);
});

Deno.test("bash corpus covers every tier and every decision", () => {
  const tiers = new Set(CORPUS.map((row) => row[1]));
  assert.deepEqual([...tiers].sort(), ["read", "tier1", "tier2", "write"]);
  const codes = new Set(CORPUS.flatMap((row) => [...row[2]]));
  assert.deepEqual([...codes].sort(), ["+", "-", "?"]);
});

Deno.test("decide() lets auto mode run tier-2 bash only with allow_dynamic_bash", async () => {
  const at = await judge("echo $(date)", { allowDynamicBash: true });
  assert.equal(at({ mode: "auto", headless: false }).decision, "allow");
  assert.equal(at({ mode: "auto", headless: true }).decision, "allow");
  assert.equal(at({ mode: "ask", headless: false }).decision, "ask", "ask mode still asks");
  const denied = await judge("echo $(rm -rf x)", { allowDynamicBash: true });
  assert.equal(denied({ mode: "auto", headless: false }).decision, "deny", "deny rules still win");
});

Deno.test("decide() allows tier-2 and tier-1 lines only by an identical exact grant", async () => {
  const rules = compileRules({ ...CORPUS_RULES, allow: ["Bash=echo $(date)", "Bash(ls:*)"] });
  const grant = await judge("echo $(date)", { rules });
  assert.deepEqual(
    { ...grant({ mode: "ask", headless: false }) },
    {
      decision: "allow",
      tier: "tier2",
      rule: "Bash=echo $(date)",
      class: "exact-grant",
      reason: `the exact grant "Bash=echo $(date)" matches`,
      suggestedRule: "Bash=echo $(date)",
    },
  );
  const other = await judge("echo $(date) ", { rules });
  assert.equal(other({ mode: "ask", headless: false }).decision, "allow", "surrounding blanks do not matter");
  const changed = await judge("echo $(date -u)", { rules });
  assert.equal(changed({ mode: "ask", headless: false }).decision, "ask");
  const glob = await judge("ls *.ts", { rules });
  assert.equal(glob({ mode: "ask", headless: false }).decision, "ask", "a prefix rule does not cover tier 1");
  assert.equal(glob({ mode: "ask", headless: false }).suggestedRule, "Bash=ls *.ts");
});

Deno.test("decide() in headless ask mode refuses with the flag or rule that would allow the call", async () => {
  const write = (await judge("npm run build"))({ mode: "ask", headless: true });
  assert.equal(write.decision, "deny");
  assert.equal(write.unanswerable, true);
  assert.match(write.reason, /nobody can answer in a headless run/);
  assert.match(write.reason, /--permission-mode auto/);
  assert.match(write.reason, /--allowed-tools 'Bash\(npm run build\)'/);
  const dynamic = (await judge("bash -c 'ls'"))({ mode: "ask", headless: true });
  assert.match(dynamic.reason, /--yolo/);
  assert.match(dynamic.reason, /allow_dynamic_bash/);
  const asked = (await judge("git push"))({ mode: "auto", headless: true });
  assert.match(asked.reason, /remove the ask rule "Bash\(git push:\*\)"/);
  for (const decision of [write, dynamic, asked]) assert.doesNotMatch(decision.reason, /declined|deny list/);
});

Deno.test("decide() suggests the narrowest rule to remember", async () => {
  const ask = { mode: "ask", headless: false } as const;
  assert.equal((await judge("npm run build"))(ask).suggestedRule, "Bash(npm run build)");
  assert.equal((await judge(`git commit -m "a b"`))(ask).suggestedRule, `Bash(git commit -m "a b")`);
  assert.equal(
    (await judge("ls && npm run build > out"))(ask).suggestedRule,
    "Bash=ls && npm run build > out",
  );
  assert.equal((await judge("cp a b && mv c d"))(ask).suggestedRule, "Bash=cp a b && mv c d");
});

Deno.test("decide() in auto mode asks before writing outside the workspace or as another user", async () => {
  const auto = { mode: "auto", headless: false } as const;
  const outside = (await judge("echo hi > /etc/motd"))(auto);
  assert.equal(outside.decision, "ask");
  assert.match(outside.reason, /writes outside the workspace/);
  assert.equal((await judge("echo hi > /ws-extra/x"))(auto).decision, "allow");
  assert.match((await judge("sudo make install"))(auto).reason, /as another user/);
});
