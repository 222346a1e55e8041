/**
 * @module
 * The browser libraries the web UI renders answers with, served as one script (`/ui/vendor.js`):
 * marked (Markdown), DOMPurify (what marked made, sanitised before it reaches the page) and
 * highlight.js's prebuilt bundle of common languages. They are read from their npm packages, which the
 * module graph reaches (so `deno compile` embeds them): nothing comes from a CDN, the UI works offline.
 */
import { fileURLToPath } from "node:url";

/** Each library's browser build: the file, and how to put its package in the module graph. */
const LIBRARIES: { file: string; reach: () => Promise<unknown> }[] = [
  { file: "marked/marked.min.js", reach: () => import("marked/package.json", { with: { type: "json" } }) },
  { file: "dompurify/dist/purify.min.js", reach: () => import("dompurify") },
  {
    file: "@highlightjs/cdn-assets/highlight.min.js",
    reach: () => import("@highlightjs/cdn-assets/package.json", { with: { type: "json" } }),
  },
];

let loading: Promise<string> | null = null;

/** The three libraries as one classic script; read once. */
export function vendorScript(): Promise<string> {
  loading ??= Promise.all(LIBRARIES.map(async ({ file, reach }) => {
    await reach();
    const text = await Deno.readTextFile(fileURLToPath(import.meta.resolve(file)));
    // A source-map comment would make the browser ask for a file that is not served.
    return `/* ${file} */\n${text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n")};\n`;
  })).then((parts) => parts.join("\n")).catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
}
