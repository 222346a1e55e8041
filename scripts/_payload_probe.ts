/**
 * @module
 * Loads what the program can load at run time, for scripts/check_payload.ts to watch: the Ink shell
 * (production React), every module under src/, every tree-sitter grammar, the bash parser, Markdown
 * with highlighted code, the web UI's browser libraries, and the HTML-to-Markdown converter.
 */
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname!, "..");

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

const { loadInkShell } = await import("../src/frontends/tui/load_shell.ts");
await loadInkShell();
for await (const path of sources(join(ROOT, "src"))) await import(path);
const { loadLanguage, WASMS_GRAMMARS } = await import("../src/tool/parse/tree_sitter.ts");
for (const language of [...WASMS_GRAMMARS, "bash"] as const) await loadLanguage(language);
const { parseBash } = await import("../src/permission/bash_parse.ts");
await parseBash("for f in *.ts; do [[ -f $f ]] && case $f in a) echo $f;; esac; done");
const { renderMarkdown } = await import("../src/frontends/tui/markdown.ts");
const { makeTheme } = await import("../src/frontends/tui/theme.ts");
renderMarkdown("# t\n\n```ts\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", {
  width: 80,
  theme: makeTheme("dark", true),
});
const { vendorScript } = await import("../src/frontends/serve/web/vendor.ts");
await vendorScript();
const { NodeHtmlMarkdown } = await import("node-html-markdown");
NodeHtmlMarkdown.translate("<p>probe <b>bold</b></p>");
console.log("probe done");
