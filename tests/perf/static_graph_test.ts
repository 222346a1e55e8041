/**
 * The MCP SDK (client, OAuth, Ajv) loads with a session's first server or login, never with every session:
 * no static import chain leads to it from the headless runner or the TUI. Measured start-up figures are in
 * docs/PERFORMANCE.md; this guards the structure they depend on.
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname!, "../..");

interface Dependency {
  isDynamic?: boolean;
  code?: { specifier: string };
}
interface Graph {
  roots: string[];
  modules: { specifier: string; dependencies?: Dependency[] }[];
}

async function staticChains(entry: string, needle: RegExp): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(out.success, `deno info ${entry} failed`);
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as Graph;
  const modules = new Map(graph.modules.map((module) => [module.specifier, module]));
  const from = new Map<string, string | undefined>(graph.roots.map((root) => [root, undefined]));
  const queue = [...graph.roots];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const dependency of modules.get(current)?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (dependency.isDynamic || target === undefined || from.has(target)) continue;
      from.set(target, current);
      queue.push(target);
    }
  }
  return [...from.keys()].filter((specifier) => needle.test(specifier)).map((specifier) => {
    const chain: string[] = [];
    for (let at: string | undefined = specifier; at !== undefined; at = from.get(at)) chain.push(at);
    return chain.map((s) => s.replace(`file://${ROOT}/`, "")).join(" <- ");
  });
}

for (const entry of ["src/frontends/run/run.ts", "src/frontends/tui/mod.ts"]) {
  Deno.test(`${entry} reaches the MCP SDK only through a dynamic import`, async () => {
    const chains = await staticChains(entry, /@modelcontextprotocol|\/src\/mcp\/(client|oauth_login)\.ts$/);
    assert.deepEqual(chains, [], chains.join("\n"));
  });
}
