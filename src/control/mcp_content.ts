/**
 * @module
 * MCP content as text for the model: a prompt's messages (`prompts/get`) and a resource's contents
 * (`resources/read`). Text rides as it is, within a size bound; an embedded text resource is wrapped
 * with its URI; binary content (blobs, images, audio) is named, never inlined.
 */
import type {
  GetPromptResult,
  McpContent as PromptContent,
  McpResourceContents as ResourceContent,
  ReadResourceResult,
} from "../mcp/client.ts";

export const MCP_TEXT_BYTES = 64 * 1024;

/** The prompt's messages as one user turn: each message's text, an assistant's marked as such. */
export function promptText(result: GetPromptResult): string {
  const parts = result.messages.map((message) => {
    const text = contentText(message.content);
    return message.role === "assistant" ? `[assistant]\n${text}` : text;
  });
  return bounded(parts.join("\n\n"), MCP_TEXT_BYTES);
}

function contentText(content: PromptContent): string {
  switch (content.type) {
    case "text":
      return content.text;
    case "resource":
      return resourceBlock(content.resource, MCP_TEXT_BYTES);
    case "resource_link":
      return `[resource link: ${content.uri}]`;
    default:
      return `[${content.type} content, not inlined${"mimeType" in content ? `: ${content.mimeType}` : ""}]`;
  }
}

/** The text of `resources/read` contents within `limit` bytes; blobs are noted by type and size. */
export function resourceContentsText(result: ReadResourceResult, limit: number): string {
  return bounded(result.contents.map((content) => contentBody(content)).join("\n\n"), limit);
}

function resourceBlock(content: ResourceContent, limit: number): string {
  const uri = attribute(content.uri);
  return `<mcp-resource uri="${uri}">\n${bounded(contentBody(content), limit)}\n</mcp-resource>`;
}

function contentBody(content: ResourceContent): string {
  if ("text" in content && typeof content.text === "string") return content.text;
  const blob = "blob" in content && typeof content.blob === "string" ? content.blob : "";
  const bytes = Math.floor(blob.length * 3 / 4);
  return `[not attached: binary content${
    content.mimeType ? ` (${content.mimeType})` : ""
  }, about ${bytes} bytes]`;
}

/** `text` cut to `limit` UTF-8 bytes at a character boundary, saying how much was left out. */
export function bounded(text: string, limit: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limit) return text;
  let end = limit;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  const head = new TextDecoder().decode(bytes.subarray(0, end));
  return `${head}\n[truncated: the first ${end} of ${bytes.length} bytes are shown]`;
}

export function attribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}
