/**
 * @module
 * An ACP prompt as the text a person would have typed: text blocks as written, a linked file inside the
 * workspace as an `@path` mention (the Controller reads it as the TUI's mentions are read), embedded
 * resources (`embeddedContext`) as a tagged block after the text.
 */
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import { escapePath } from "../../control/mod.ts";

export function promptText(blocks: readonly acp.ContentBlock[], root: string): string {
  const words: string[] = [];
  const attached: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") words.push(block.text);
    if (block.type === "resource_link") words.push(mention(block.uri, root) ?? block.uri);
    if (block.type === "resource" && "text" in block.resource) {
      const where = mention(block.resource.uri, root) ?? block.resource.uri;
      attached.push(`<context source="${where.replaceAll('"', "'")}">\n${block.resource.text}\n</context>`);
    }
  }
  return [words.join(" ").trim(), ...attached].filter((part) => part !== "").join("\n\n");
}

/** `@src/a.ts` for a file URI inside the workspace; null otherwise. */
function mention(uri: string, root: string): string | null {
  if (!uri.startsWith("file:")) return null;
  let path: string;
  try {
    path = fileURLToPath(uri);
  } catch {
    return null;
  }
  const inside = relative(root, path);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return null;
  return `@${escapePath(inside)}`;
}
