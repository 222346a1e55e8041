/**
 * @module
 * tree-sitter (WebAssembly) for the code tools: the library is imported and its runtime initialised
 * on first use (so importing the tools stays cheap), each grammar is loaded once by path from the
 * `tree-sitter-wasms` package, and one parser is shared.
 */
import { fileURLToPath } from "node:url";
import { extname } from "node:path";
import type { Language, Node, Parser } from "web-tree-sitter";
import { ToolError } from "../tool.ts";

/** A syntax tree node; the only name the collectors use from web-tree-sitter. */
export type SyntaxNode = Node;

/** The grammars loaded from `tree-sitter-wasms` (the compiled binary embeds only these); bash has its own. */
export const WASMS_GRAMMARS = ["typescript", "tsx", "javascript", "go", "python", "rust"] as const;

export type LanguageId = typeof WASMS_GRAMMARS[number] | "bash";

export interface ParsedSource extends Disposable {
  root: SyntaxNode;
  language: LanguageId;
}

const EXTENSIONS: Readonly<Record<string, LanguageId>> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".go": "go",
  ".py": "python",
  ".pyi": "python",
  ".rs": "rust",
  ".sh": "bash",
  ".bash": "bash",
};

let runtime: Promise<Parser> | null = null;
const languages = new Map<LanguageId, Promise<Language>>();

/** The grammar for a file name, or null when none is bundled for it. */
export function languageForPath(path: string): LanguageId | null {
  if (path.endsWith(".d.ts")) return "typescript";
  return EXTENSIONS[extname(path).toLowerCase()] ?? null;
}

/** Parses `text`; dispose the result (`using`) to free the tree's WebAssembly memory. */
export async function parseSource(text: string, language: LanguageId): Promise<ParsedSource> {
  const parser = await sharedParser();
  parser.setLanguage(await loadLanguage(language));
  const tree = parser.parse(text);
  if (tree === null) {
    throw new ToolError("tool.parse_failed", `Cannot parse the ${language} source: the parser gave up`);
  }
  return { root: tree.rootNode, language, [Symbol.dispose]: () => tree.delete() };
}

export function loadLanguage(language: LanguageId): Promise<Language> {
  let loading = languages.get(language);
  if (loading === undefined) {
    loading = sharedParser()
      .then(async () => {
        const { Language } = await import("web-tree-sitter");
        return Language.load(await Deno.readFile(await grammarPath(language)));
      })
      .catch((error) => {
        languages.delete(language);
        throw unavailable(`the ${language} grammar`, error);
      });
    languages.set(language, loading);
  }
  return loading;
}

function sharedParser(): Promise<Parser> {
  if (runtime === null) {
    runtime = import("web-tree-sitter")
      .then(async ({ Parser }) => {
        const wasm = fileURLToPath(import.meta.resolve("web-tree-sitter/tree-sitter.wasm"));
        await Parser.init({ locateFile: () => wasm });
        return new Parser();
      })
      .catch((error) => {
        runtime = null;
        throw unavailable("the tree-sitter runtime", error);
      });
  }
  return runtime;
}

/**
 * `import.meta.resolve` only maps the specifier to Deno's npm cache; it does not download anything.
 * Importing the package's own package.json puts the package in the module graph, so a clean cache
 * (a fresh CI clone) fetches it on first use. The package ships no JavaScript to import instead.
 */
async function grammarPath(language: LanguageId): Promise<string> {
  // The bash grammar in tree-sitter-wasms imports libc functions this runtime lacks (it throws on
  // `[[ ]]` and `case`); the grammar's own package ships a build for this runtime.
  if (language === "bash") {
    await import("tree-sitter-bash/package.json", { with: { type: "json" } });
    return fileURLToPath(import.meta.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  }
  await import("tree-sitter-wasms/package.json", { with: { type: "json" } });
  return fileURLToPath(import.meta.resolve(`tree-sitter-wasms/out/tree-sitter-${language}.wasm`));
}

function unavailable(what: string, error: unknown): ToolError {
  const detail = error instanceof Error ? error.message : String(error);
  return new ToolError("tool.parser_unavailable", `Cannot load ${what}: ${detail}`);
}
