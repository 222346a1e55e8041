/**
 * @module
 * Enforces the layer rules of STYLE.md §7.1 over src/ and main.ts. Usage: `deno run -A
 * scripts/check_layers.ts [root]`. Each failure says which rule broke and where the code should move.
 */
import { posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { lineOf, lineStartsOf, listSources, scanSource } from "./_scan.ts";

export const ENTRY = "main.ts";
/** The entry layer: main.ts, and cli.ts, the command table it loads for everything but `--version`. */
export const ENTRIES = [ENTRY, "cli.ts"];
export const FRONTENDS = [
  "src/frontends/tui",
  "src/frontends/run",
  "src/frontends/serve",
  "src/frontends/acp",
  // admin commands (config, trust-key, session): thin renderers over control/admin.ts
  "src/frontends/cli",
];
export const CONTROL = "src/control";
/** The one control module faces and main.ts may import (rule 2). */
export const CONTROL_PUBLIC = "src/control/mod.ts";
/**
 * The second door: the Deno fence's parent (src/frontends/cli/fence.ts) only computes flags and re-runs
 * itself, so it loads this module alone rather than the whole Controller behind mod.ts.
 */
export const CONTROL_FENCE = "src/control/fence.ts";
export const KERNEL = [
  "src/agent",
  "src/tool",
  "src/provider",
  "src/permission",
  "src/sandbox",
  "src/mcp",
  "src/session",
  "src/prompt",
  "src/config",
];
export const LEAF = "src/lib";
/** Each npm package's home; a trailing `*` matches any path that starts with the prefix. */
export const NPM_HOMES: Record<string, { homes: string[]; fix: string }> = {
  "hono": { homes: ["src/frontends/serve"], fix: "move the HTTP code into src/frontends/serve" },
  "bcryptjs": { homes: ["src/frontends/serve"], fix: "check passwords in src/frontends/serve/auth.ts" },
  "@agentclientprotocol/sdk": {
    homes: ["src/frontends/acp"],
    fix: "speak ACP from src/frontends/acp; put what it needs in src/control",
  },
  "@modelcontextprotocol/sdk": { homes: ["src/mcp"], fix: "go through src/mcp/client.ts" },
  "commander": { homes: [...ENTRIES, "src/frontends"], fix: "parse argv in cli.ts or a frontend" },
  "smol-toml": { homes: ["src/config"], fix: "parse TOML in src/config and pass the values in" },
  "diff": { homes: ["src/lib/diff*"], fix: "import it via src/lib/diff/unified.ts" },
  "minisearch": {
    homes: ["src/lib/bm25.ts", "src/tool/memory/recall.ts"],
    fix: "rank text through src/lib/bm25.ts (or memory facts in src/tool/memory/recall.ts)",
  },
  "web-tree-sitter": {
    homes: ["src/tool/parse/tree_sitter.ts"],
    fix: "parse through src/tool/parse/tree_sitter.ts",
  },
  "tree-sitter-wasms": {
    homes: ["src/tool/parse/tree_sitter.ts"],
    fix: "load grammars in src/tool/parse/tree_sitter.ts",
  },
  "tree-sitter-bash": {
    homes: ["src/tool/parse/tree_sitter.ts"],
    fix: "load grammars in src/tool/parse/tree_sitter.ts",
  },
  "node-html-markdown": { homes: ["src/tool/builtin/web_fetch.ts"], fix: "convert HTML in web_fetch" },
  "@inquirer/prompts": { homes: ["src/frontends/tui"], fix: "prompt from src/frontends/tui" },
  "@clack/prompts": { homes: ["src/frontends/tui"], fix: "prompt from src/frontends/tui" },
  "ink": { homes: ["src/frontends/tui"], fix: "render the terminal UI in src/frontends/tui" },
  "react": { homes: ["src/frontends/tui"], fix: "keep React components in src/frontends/tui" },
  "marked": {
    homes: ["src/frontends/tui", "src/frontends/serve/web/vendor.ts"],
    fix:
      "render Markdown in src/frontends/tui (the web UI's copy is served by src/frontends/serve/web/vendor.ts)",
  },
  "dompurify": {
    homes: ["src/frontends/serve/web/vendor.ts"],
    fix: "serve browser libraries from src/frontends/serve/web/vendor.ts",
  },
  "@highlightjs/cdn-assets": {
    homes: ["src/frontends/serve/web/vendor.ts"],
    fix: "serve browser libraries from src/frontends/serve/web/vendor.ts",
  },
  "marked-terminal": { homes: ["src/frontends/tui"], fix: "render Markdown in src/frontends/tui" },
  "cli-highlight": { homes: ["src/frontends/tui"], fix: "highlight code in src/frontends/tui" },
  "string-width": { homes: ["src/frontends/tui"], fix: "measure terminal text in src/frontends/tui" },
  "wrap-ansi": { homes: ["src/frontends/tui"], fix: "wrap terminal text in src/frontends/tui" },
  "zod": { homes: ["src/*", ...ENTRIES], fix: "validate in the caller: src/lib takes plain values" },
};
/** Root files any module may import as data (the version comes from deno.json). */
export const DATA_FILES = ["deno.json"];
export const ENV_HOME = "src/config/paths.ts";
export const SPAWN_HOME = "src/sandbox";
/** The one error policy: main.ts sets the exit status, src/lib/errors.ts words `error:` and `hint:` lines. */
export const ERROR_TEXT_HOME = "src/lib/errors.ts";

export interface LayerFailure {
  file: string;
  line: number;
  rule: number;
  what: string;
  fix: string;
}

export interface LayerReport {
  files: number;
  failures: LayerFailure[];
}

type Layer = "entry" | "frontend" | "control" | "kernel" | "leaf" | "none";
type Target =
  | { kind: "local"; path: string }
  | { kind: "npm"; name: string }
  | { kind: "node"; name: string }
  | { kind: "remote" | "unmapped"; spec: string };

interface Edge {
  spec: string;
  line: number;
}

export async function checkLayers(root: string): Promise<LayerReport> {
  const imports = await readImportMap(root);
  const files = await listSources(root, "src");
  for (const entry of [...ENTRIES].reverse()) if (await isFile(`${root}/${entry}`)) files.unshift(entry);
  const failures: LayerFailure[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(`${root}/${file}`);
    failures.push(...checkFile(file, text, (spec) => resolveSpecifier(spec, file, imports)));
  }
  failures.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
  return { files: files.length, failures };
}

export function formatFailure(failure: LayerFailure): string {
  return `${failure.file}:${failure.line}: [rule ${failure.rule}] ${failure.what} — ${failure.fix}`;
}

function checkFile(file: string, text: string, resolveSpec: (spec: string) => Target): LayerFailure[] {
  const scanned = scanSource(text);
  const starts = lineStartsOf(text);
  const failures: LayerFailure[] = [];
  const fail = (line: number, rule: number, what: string, fix: string) =>
    failures.push({ file, line, rule, what, fix });
  if (layerOf(file).layer === "none") {
    fail(
      1,
      0,
      `"${file}" is in no declared layer`,
      "move it into a layer, or declare its folder in scripts/check_layers.ts",
    );
  }
  for (const edge of findImports(text, scanned.code, starts)) {
    const broken = checkEdge(file, edge.spec, resolveSpec(edge.spec));
    if (broken !== undefined) fail(edge.line, broken.rule, broken.what, broken.fix);
  }
  for (const found of findRestrictedUses(file, scanned, starts)) failures.push({ file, ...found });
  if (!ENTRIES.includes(file)) {
    for (const found of findTopLevelEffects(scanned.code)) failures.push({ file, ...found });
  }
  return failures;
}

function layerOf(path: string): { layer: Layer; name: string } {
  if (ENTRIES.includes(path)) return { layer: "entry", name: path };
  const frontend = /^src\/frontends\/[^/]+(?=\/)/.exec(path)?.[0];
  if (frontend !== undefined) return { layer: "frontend", name: frontend };
  if (under(path, CONTROL)) return { layer: "control", name: CONTROL };
  if (under(path, LEAF)) return { layer: "leaf", name: LEAF };
  const kernel = KERNEL.find((dir) => under(path, dir));
  if (kernel !== undefined) return { layer: "kernel", name: kernel };
  return { layer: "none", name: path };
}

function under(path: string, home: string): boolean {
  if (home.endsWith("*")) return path.startsWith(home.slice(0, -1));
  return path === home || path.startsWith(`${home}/`);
}

type Broken = { rule: number; what: string; fix: string } | undefined;

function checkEdge(file: string, spec: string, target: Target): Broken {
  const from = layerOf(file);
  switch (target.kind) {
    case "node":
      if (target.name === "node:child_process" && !under(file, SPAWN_HOME)) {
        return {
          rule: 6,
          what: `imports "${spec}"`,
          fix: "run processes through the Sandbox in src/sandbox",
        };
      }
      return undefined;
    case "remote":
      return {
        rule: 5,
        what: `imports remote "${spec}", which our machines cannot reach`,
        fix: "use an npm package from the deno.json imports map or a node: built-in",
      };
    case "unmapped":
      return {
        rule: 5,
        what: `imports "${spec}", which is not in the deno.json imports map`,
        fix:
          "add a pinned npm: entry to deno.json and give it a home in NPM_HOMES in scripts/check_layers.ts",
      };
    case "npm":
      return checkNpm(file, from.layer, target.name);
    case "local":
      return checkLocal(from, target.path);
  }
}

function checkNpm(file: string, layer: Layer, name: string): Broken {
  const home = NPM_HOMES[name];
  if (home === undefined) {
    return {
      rule: 5,
      what: `npm package "${name}" has no home`,
      fix: "assign it one in NPM_HOMES in scripts/check_layers.ts (and STYLE.md §7.1)",
    };
  }
  if (home.homes.some((dir) => under(file, dir)) && (layer !== "leaf" || name !== "zod")) return undefined;
  if (layer === "leaf") {
    return { rule: 1, what: `src/lib is closed and may not import npm "${name}"`, fix: home.fix };
  }
  return { rule: 5, what: `npm "${name}" belongs to ${home.homes.join(" or ")}`, fix: home.fix };
}

function checkLocal(from: { layer: Layer; name: string }, path: string): Broken {
  const to = layerOf(path);
  if (DATA_FILES.includes(path)) return undefined;
  if (path.startsWith("../") || (!path.startsWith("src/") && !ENTRIES.includes(path))) {
    return {
      rule: 0,
      what: `imports "${path}", outside src/`,
      fix: "production code may not depend on tests or scripts: move the shared code into src/",
    };
  }
  if (from.layer === "leaf" && to.layer !== "leaf") {
    return {
      rule: 1,
      what: `src/lib is closed and may not import "${path}"`,
      fix: "move the shared code into src/lib, or pass it in from the caller",
    };
  }
  if (from.layer === "kernel" && (to.layer === "control" || to.layer === "frontend")) {
    return {
      rule: 4,
      what: `the kernel (${from.name}) may not import "${path}"`,
      fix:
        "invert the dependency (take a port or callback as a parameter), or move this code into src/control",
    };
  }
  if (to.layer === "control" && !["frontend", "entry", "control"].includes(from.layer)) {
    return {
      rule: 2,
      what: `only frontends and main.ts may import the controller ("${path}")`,
      fix: "take the port you need as a parameter, or move this code into src/control or a frontend",
    };
  }
  if (
    to.layer === "control" && from.layer !== "control" && path !== CONTROL_PUBLIC && path !== CONTROL_FENCE
  ) {
    return {
      rule: 2,
      what: `${from.name} imports "${path}"; faces reach control only through ${CONTROL_PUBLIC}`,
      fix: `import it from ${CONTROL_PUBLIC} (add the export there if a face needs it)`,
    };
  }
  if (to.layer === "entry" && !(from.name === ENTRY && path !== ENTRY)) {
    return {
      rule: 3,
      what: "nothing but main.ts may import an entry file",
      fix: "move the shared code into src/control",
    };
  }
  if (to.layer === "frontend" && from.layer !== "entry" && from.name !== to.name) {
    const what = from.layer === "frontend"
      ? `frontend ${from.name} may not import frontend ${to.name} ("${path}")`
      : `only main.ts may import a frontend ("${path}")`;
    return { rule: 3, what, fix: "move the shared behaviour below the frontends, into src/control" };
  }
  return undefined;
}

const IMPORT_PATTERNS = [
  /\b(?:import|export)\s+(?:type\s+)?[^;"'`()]*?\bfrom\s*(["'])([^"'\n]*)\1/dg,
  /\bimport\s*(["'])([^"'\n]*)\1/dg,
  /\bimport\s*\(\s*(["'])([^"'\n]*)\1\s*[,)]/dg,
];

/** Matches run on the blanked code, so imports inside strings and comments are ignored. */
function findImports(text: string, code: string, starts: number[]): Edge[] {
  const edges: Edge[] = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of code.matchAll(pattern)) {
      const [from, to] = match.indices![2]!;
      edges.push({ spec: text.slice(from, to), line: lineOf(starts, match.index) });
    }
  }
  return edges;
}

/**
 * The one exit that cannot go through main.ts: a repeated stop signal or the parent's death, where the
 * children are killed and nothing may wait for an error to travel up.
 */
export const EMERGENCY_EXIT_HOME = "src/sandbox/children.ts";

const RESTRICTED: {
  pattern: RegExp;
  inStrings: boolean;
  home: string | string[];
  what: string;
  fix: string;
}[] = [
  {
    pattern: /\bDeno\s*\.\s*env\b/g,
    inStrings: false,
    home: ENV_HOME,
    what: "reads Deno.env",
    fix: "read environment values in src/config/paths.ts and pass them in",
  },
  {
    pattern: /\b(?:homedir|tmpdir)\s*\(/g,
    inStrings: false,
    home: ENV_HOME,
    what: "calls homedir()/tmpdir()",
    fix: "resolve home and temp dirs in src/config/paths.ts and pass the paths in",
  },
  {
    pattern: /\bREASONIX_HOME\b/g,
    inStrings: true,
    home: ENV_HOME,
    what: "names REASONIX_HOME",
    fix: "only src/config/paths.ts knows that variable: take the resolved path as a parameter",
  },
  {
    pattern: /\bDeno\s*\.\s*Command\b/g,
    inStrings: false,
    home: SPAWN_HOME,
    what: "spawns a process with Deno.Command",
    fix: "run processes through the Sandbox in src/sandbox",
  },
  {
    pattern: /\bDeno\s*\.\s*exit(?:Code)?\b/g,
    inStrings: false,
    home: [...ENTRIES, EMERGENCY_EXIT_HOME],
    what: "sets the exit status",
    fix:
      "throw a ReasonixError (or return the code of an error already shown); main.ts maps it to the exit " +
      "status through src/frontends/cli/report_error.ts",
  },
  {
    pattern: /(?<=["'`])(?:error|hint): /g,
    inStrings: true,
    home: ERROR_TEXT_HOME,
    what: "words its own `error:`/`hint:` line",
    fix:
      "throw a ReasonixError for main.ts to report, or render the error with errorText() of src/lib/errors.ts",
  },
];

function findRestrictedUses(file: string, scanned: { code: string; noComments: string }, starts: number[]) {
  const found: Omit<LayerFailure, "file">[] = [];
  for (const rule of RESTRICTED) {
    if ([rule.home].flat().some((home) => under(file, home))) continue;
    for (const match of (rule.inStrings ? scanned.noComments : scanned.code).matchAll(rule.pattern)) {
      found.push({ line: lineOf(starts, match.index), rule: 6, what: `${file} ${rule.what}`, fix: rule.fix });
    }
  }
  return found;
}

const TOP_LEVEL_CALL =
  /^(?:export\s+)?(?:(?:const|let|var)\s+[^=]+=\s*)?(?:await\s+)?(?:void\s+)?([\w$]+(?:\s*\.\s*[\w$]+)*)\s*\(/;
const EFFECT_CALLEE =
  /^(?:.*\.)?(?:register\w*|setInterval|setTimeout|queueMicrotask)$|^Deno\.(?:serve|listen)$/;

/** Best effort: a call at column 0 is a top-level statement. */
function findTopLevelEffects(code: string): Omit<LayerFailure, "file">[] {
  const found: Omit<LayerFailure, "file">[] = [];
  code.split("\n").forEach((line, index) => {
    const callee = TOP_LEVEL_CALL.exec(line)?.[1]?.replace(/\s+/g, "");
    if (callee === undefined || !EFFECT_CALLEE.test(callee)) return;
    found.push({
      line: index + 1,
      rule: 7,
      what: `calls ${callee}() at the top level, so importing the module runs it`,
      fix: "do it inside a function the caller invokes (register built-ins from tool/builtin/mod.ts's list)",
    });
  });
  return found;
}

function resolveSpecifier(spec: string, file: string, imports: Map<string, string>): Target {
  if (spec.startsWith("./") || spec.startsWith("../") || spec.startsWith("/")) {
    return { kind: "local", path: posix.normalize(posix.join(posix.dirname(file), spec)) };
  }
  if (spec.startsWith("node:")) return { kind: "node", name: spec };
  if (spec.startsWith("npm:")) return { kind: "npm", name: npmName(spec) };
  if (/^(?:jsr|https?):/.test(spec)) return { kind: "remote", spec };
  const mapped = lookupImport(spec, imports);
  if (mapped === undefined) return { kind: "unmapped", spec };
  if (mapped.startsWith("npm:") || mapped.startsWith("node:") || /^(?:jsr|https?):/.test(mapped)) {
    return resolveSpecifier(mapped, file, imports);
  }
  return { kind: "local", path: mapped };
}

function npmName(spec: string): string {
  const bare = spec.slice("npm:".length).replace(/^\//, "");
  const parts = bare.split("/");
  const name = bare.startsWith("@") ? `${parts[0]}/${parts[1] ?? ""}` : parts[0]!;
  const at = name.indexOf("@", 1);
  return at === -1 ? name : name.slice(0, at);
}

function lookupImport(spec: string, imports: Map<string, string>): string | undefined {
  const exact = imports.get(spec);
  if (exact !== undefined) return exact;
  let best: string | undefined;
  for (const key of imports.keys()) {
    if (key.endsWith("/") && spec.startsWith(key) && key.length > (best?.length ?? 0)) best = key;
  }
  return best === undefined ? undefined : imports.get(best)! + spec.slice(best.length);
}

/** Bare names map to their deno.json targets; local targets become root-relative paths. */
async function readImportMap(root: string): Promise<Map<string, string>> {
  let config: { imports?: Record<string, string> };
  try {
    config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return new Map();
    throw new SyntaxError(`Cannot parse "${root}/deno.json": ${(error as Error).message}`);
  }
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(config.imports ?? {})) {
    const local = value.startsWith(".") || value.startsWith("/") || value.startsWith("file:");
    const path = value.startsWith("file:") ? fileURLToPath(value) : resolve(root, value);
    map.set(
      key,
      local ? relative(resolve(root), path).replaceAll("\\", "/") + (value.endsWith("/") ? "/" : "") : value,
    );
  }
  return map;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function main(args: string[]): Promise<number> {
  const root = resolve(args[0] ?? ".");
  const report = await checkLayers(root);
  for (const failure of report.failures) console.error(formatFailure(failure));
  if (report.failures.length > 0) {
    const count = report.failures.length;
    console.error(`check_layers: ${count} ${count === 1 ? "failure" : "failures"} in ${report.files} files`);
    return 1;
  }
  console.log(`check_layers: ${report.files} files ok`);
  return 0;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);
