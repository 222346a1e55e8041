/**
 * `deno task bench`: runs the same scripted sessions with our CLI and with the Go Reasonix
 * (`npm i reasonix@1.38.11`, installed into bench/ on first use) against the DeepSeek simulator,
 * side by side, and prints wall time, peak RSS, requests, prompt tokens and cache hit ratio; then times
 * our tools in-process (scripts/_bench_tools.ts). `BENCH_ONLY=sessions|tools` runs one section.
 * Figures are printed, never asserted.
 */
import { join, resolve } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../tests/support/deepseek_sim.ts";
import { priceFor, receiptFor } from "../src/provider/pricing.ts";
import { median, runToolBenches } from "./_bench_tools.ts";

const ROOT = resolve(import.meta.dirname!, "..");
const BENCH_DIR = join(ROOT, "bench");
const GO_VERSION = "1.38.11";
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "3");
const SECTIONS = ["sessions", "tools"] as const;

interface Scenario {
  name: string;
  task: string;
  files: Record<string, string>;
  script: () => ScriptedReply[];
}

const SCENARIOS: Scenario[] = [{
  name: "3-call task",
  task: "look at the project and tell me what it is",
  files: { "README.md": "# demo\n\nA tiny demo project.\n", "src/app.js": "console.log('hi');\n" },
  script: () => [
    {
      reasoning: "Read the README first.",
      toolCalls: [{ name: "read_file", arguments: `{"path":"README.md"}` }],
    },
    { reasoning: "List the files.", toolCalls: [{ name: "bash", arguments: `{"command":"ls -R"}` }] },
    { reasoning: "Check the app.", toolCalls: [{ name: "read_file", arguments: `{"path":"src/app.js"}` }] },
    { content: "It is a tiny demo project with one script that prints hi." },
  ],
}];

interface Figures {
  wallMs: number;
  peakRssMb: number;
  requests: number;
  promptTokens: number;
  hitTokens: number;
  cost: number;
  exitCode: number;
}

interface Contender {
  name: string;
  command: (task: string) => string[];
}

async function goBinary(): Promise<string | null> {
  const bin = join(BENCH_DIR, "node_modules/@reasonix/cli-linux-x64/bin/reasonix");
  try {
    await Deno.stat(bin);
    return bin;
  } catch {
    console.error(`Installing reasonix@${GO_VERSION} into bench/ ...`);
    await Deno.mkdir(BENCH_DIR, { recursive: true });
    const out = await new Deno.Command("npm", {
      args: ["i", "--prefix", BENCH_DIR, `reasonix@${GO_VERSION}`],
      stdout: "null",
      stderr: "inherit",
    }).output();
    return out.success ? bin : null;
  }
}

async function prepare(sim: DeepSeekSim, scenario: Scenario) {
  const home = await Deno.makeTempDir({ prefix: "bench-home-" });
  const toml =
    `default_model = "deepseek-flash"\n\n[[providers]]\nname = "deepseek-flash"\nkind = "openai"\n` +
    `base_url = "${sim.url}"\nmodel = "deepseek-flash"\napi_key_env = "DEEPSEEK_API_KEY"\n` +
    `reasoning_protocol = "deepseek"\n`;
  await Deno.writeTextFile(join(home, "config.toml"), toml);
  await Deno.writeTextFile(join(home, ".env"), "DEEPSEEK_API_KEY=sk-bench\n");
  const ws = await Deno.makeTempDir({ prefix: "bench-ws-" });
  for (const [name, text] of Object.entries(scenario.files)) {
    await Deno.mkdir(join(ws, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(ws, name), text);
  }
  return { home, ws };
}

async function measure(contender: Contender, scenario: Scenario): Promise<Figures> {
  const sim = await DeepSeekSim.start({ script: scenario.script() });
  const { home, ws } = await prepare(sim, scenario);
  const rssFile = join(home, "rss.txt");
  try {
    const started = performance.now();
    const out = await new Deno.Command("/usr/bin/time", {
      args: ["-f", "%M", "-o", rssFile, ...contender.command(scenario.task)],
      cwd: ws,
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? home,
        REASONIX_HOME: home,
        NO_COLOR: "1",
        ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      },
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).output();
    const wallMs = performance.now() - started;
    const stats = sim.stats();
    const usage = {
      promptTokens: stats.promptTokens,
      completionTokens: stats.completionTokens,
      cacheHitTokens: stats.hitTokens,
      cacheMissTokens: stats.missTokens,
      reasoningTokens: 0,
    };
    const receipt = receiptFor(usage, priceFor("deepseek-flash"), new Date("2026-12-02T02:00:00Z"));
    const rssKb = Number((await Deno.readTextFile(rssFile)).trim().split("\n").at(-1));
    return {
      wallMs,
      peakRssMb: rssKb / 1024,
      requests: stats.requests,
      promptTokens: stats.promptTokens,
      hitTokens: stats.hitTokens,
      cost: receipt.cost ?? 0,
      exitCode: out.code,
    };
  } finally {
    await sim.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(ws, { recursive: true });
  }
}

function row(name: string, runs: Figures[]): string {
  const last = runs.at(-1)!;
  const hit = last.promptTokens > 0 ? (100 * last.hitTokens / last.promptTokens).toFixed(1) : "0";
  return [
    name.padEnd(22),
    `${median(runs.map((r) => r.wallMs)).toFixed(0)} ms`.padStart(9),
    `${median(runs.map((r) => r.peakRssMb)).toFixed(0)} MB`.padStart(7),
    String(last.requests).padStart(5),
    String(last.promptTokens).padStart(8),
    `${hit}%`.padStart(7),
    `¥${last.cost.toFixed(6)}`.padStart(11),
    runs.every((r) => r.exitCode === 0) ? "ok" : `exit ${runs.map((r) => r.exitCode).join(",")}`,
  ].join("  ");
}

async function main() {
  const only = Deno.env.get("BENCH_ONLY") ?? "";
  if (only !== "" && !(SECTIONS as readonly string[]).includes(only)) {
    console.error(`Unknown BENCH_ONLY "${only}": use ${SECTIONS.map((s) => `"${s}"`).join(" or ")}`);
    Deno.exit(2);
  }
  if (only !== "tools") await runSessionBenches();
  if (only !== "sessions") await runToolBenches({ runs: RUNS });
}

async function runSessionBenches() {
  const ours: Contender = {
    name: "reasonix (deno)",
    command: (task) => [
      Deno.execPath(),
      "run",
      "--no-prompt",
      "-A",
      join(ROOT, "main.ts"),
      "run",
      "--permission-mode",
      "auto",
      "--output-format",
      "json",
      task,
    ],
  };
  const contenders = [ours];
  const go = await goBinary();
  if (go) {
    contenders.push({
      name: `reasonix (go ${GO_VERSION})`,
      command: (task) => [go, "run", "--output-format", "json", task],
    });
  } else console.error("The Go Reasonix could not be installed: only our CLI is measured");
  console.log(
    `runs per contender: ${RUNS} (median wall time and RSS; tokens from the last run; cost at peak flash prices)`,
  );
  for (const scenario of SCENARIOS) {
    console.log(`\n## ${scenario.name}`);
    console.log(
      [
        "tool".padEnd(22),
        "wall".padStart(9),
        "rss".padStart(7),
        "reqs",
        "prompt".padStart(8),
        "hit".padStart(7),
        "cost".padStart(11),
        "status",
      ].join("  "),
    );
    const figures = new Map<string, Figures[]>();
    for (const contender of contenders) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(contender, scenario));
      figures.set(contender.name, runs);
      console.log(row(contender.name, runs));
    }
    printRatios(figures, contenders.map((c) => c.name));
  }
}

function printRatios(figures: Map<string, Figures[]>, names: string[]) {
  if (names.length < 2) return;
  const a = figures.get(names[0]!)!;
  const b = figures.get(names[1]!)!;
  const ratio = (f: (r: Figures) => number) => (median(a.map(f)) / median(b.map(f))).toFixed(2);
  console.log(
    `ratio ours/go: wall ${ratio((r) => r.wallMs)}x, rss ${ratio((r) => r.peakRssMb)}x, ` +
      `prompt tokens ${ratio((r) => r.promptTokens)}x, cost ${ratio((r) => r.cost)}x`,
  );
}

if (import.meta.main) await main();
