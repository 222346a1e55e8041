/**
 * @module
 * The shapes of MCP prompts and resources the rest of Reasonix reads, as plain interfaces (the subset
 * of the SDK's schemas it uses), so callers outside src/mcp never depend on the SDK's inferred types.
 */

export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: McpPromptArgument[];
}

export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  /** Base64. */
  blob?: string;
}

export type McpContent =
  | { type: "text"; text: string }
  | { type: "resource"; resource: McpResourceContents }
  | { type: "resource_link"; uri: string; name?: string }
  | { type: "image" | "audio"; mimeType?: string };

export interface McpPromptMessage {
  role: "user" | "assistant";
  content: McpContent;
}

export interface GetPromptResult {
  description?: string;
  messages: McpPromptMessage[];
}

export interface ReadResourceResult {
  contents: McpResourceContents[];
}
