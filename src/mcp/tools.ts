/**
 * @module
 * A server's tool as a registry tool: its JSON Schema sent as the server gave it (canonicalised once by
 * the registry), arguments checked against that schema with the SDK's validator before the gate, and the
 * result mapped to text the model reads: text parts as they are, images and audio as a note, embedded
 * resources by their text, `structuredContent` as JSON when no text came with it, and `isError` as a tool
 * error. `readOnlyHint` makes it a reader and `destructiveHint` is shown on approval cards; both follow the
 * server's latest list, since a spec outlives a `tools/list_changed`.
 */
import { z } from "zod";
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation/types.js";
import { ReasonixError } from "../lib/errors.ts";
import {
  type ToolContext,
  ToolError,
  type ToolProgress,
  type ToolResult,
  type ToolSpec,
} from "../tool/tool.ts";
import type { CallToolResult, McpProgress, McpTool } from "./client.ts";
import { serverGroup } from "./tool_names.ts";

/** A server's description is capped: it is sent on every request. */
const MAX_DESCRIPTION = 4096;

/** What the server last said about the tool; replaced when its list changes. */
export interface McpToolInfo {
  server: string;
  tool: McpTool;
}

/** A registry tool standing for a server's tool; `info` follows the server's latest list. */
export type McpToolSpec = ToolSpec & { info: McpToolInfo };

/** Runs a call of `spec` (its `info` brought up to date first, the server started if need be). */
export type McpCaller = (
  spec: McpToolSpec,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal; onProgress?: (progress: McpProgress) => void },
) => Promise<CallToolResult>;

/** The registry tool `name` standing for `info.tool` of `info.server`. */
export function mcpToolSpec(name: string, info: McpToolInfo, caller: McpCaller): McpToolSpec {
  const validators = new WeakMap<object, (value: unknown) => string | null>();
  const validate = (value: unknown) => {
    const schema = spec.info.tool.inputSchema;
    let check = validators.get(schema);
    if (check === undefined) validators.set(schema, check = validatorOf(schema));
    return check(value);
  };
  const spec: McpToolSpec = {
    name,
    description: describe(info),
    inputSchema: parametersOf(info.tool),
    parameters: z.unknown().superRefine((value, ctx) => {
      const problem = validate(value);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    }),
    ruleGroup: serverGroup(info.server),
    info,
    get readOnly() {
      return spec.info.tool.annotations?.readOnlyHint === true;
    },
    get destructive() {
      // Only a tool that says so: MCP's default (true) would mark every tool without hints.
      const hints = spec.info.tool.annotations;
      return hints?.readOnlyHint !== true && hints?.destructiveHint === true;
    },
    execute: (args: unknown, ctx: ToolContext) => runTool(spec, args, ctx, caller),
  };
  return spec;
}

/** The parameters sent to the model: the server's schema without `$schema`, always an object schema with `properties`. */
export function parametersOf(tool: McpTool): Record<string, unknown> {
  const { $schema: _schema, ...rest } = tool.inputSchema as Record<string, unknown>;
  // Some providers reject an object schema without `properties`; an empty one says the same.
  return { properties: {}, ...rest, type: "object" };
}

function describe(info: McpToolInfo): string {
  const text = (info.tool.description ?? info.tool.title ?? "").trim();
  const base = text === "" ? `The "${info.tool.name}" tool of MCP server "${info.server}"` : text;
  return base.length <= MAX_DESCRIPTION ? base : `${base.slice(0, MAX_DESCRIPTION - 3)}...`;
}

let Validator: typeof AjvJsonSchemaValidator | undefined;

/** Loads the argument validator (the SDK's Ajv) with a session's first MCP tools, not with every session;
 * the tools' checks need it, so McpTools awaits it before registering any. */
export async function loadArgumentValidator(): Promise<void> {
  Validator ??= (await import("@modelcontextprotocol/sdk/validation/ajv")).AjvJsonSchemaValidator;
}

/** A check of the arguments: null when they fit, else what is wrong, in the validator's words. */
function validatorOf(schema: McpTool["inputSchema"]): (value: unknown) => string | null {
  let check: ((value: unknown) => { valid: boolean; errorMessage?: string }) | undefined;
  let broken = false;
  return (value) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return "the arguments must be an object";
    }
    if (broken) return null;
    if (Validator === undefined) throw new Error("loadArgumentValidator() must finish before MCP tools run");
    try {
      check ??= new Validator().getValidator(schema as JsonSchemaType);
    } catch {
      // A schema the validator cannot compile: the server checks the arguments itself.
      broken = true;
      return null;
    }
    const result = check(value);
    return result.valid ? null : (result.errorMessage ?? "the arguments do not match the schema");
  };
}

async function runTool(
  spec: McpToolSpec,
  args: unknown,
  ctx: ToolContext,
  caller: McpCaller,
): Promise<ToolResult> {
  const onProgress = ctx.onProgress;
  let result: CallToolResult;
  try {
    result = await caller(spec, args as Record<string, unknown>, {
      signal: ctx.signal,
      ...(onProgress ? { onProgress: (progress: McpProgress) => onProgress(progressUpdate(progress)) } : {}),
    });
  } catch (error) {
    if (!(error instanceof ReasonixError)) throw error;
    const hint = error.hint ? `\n${error.hint}` : "";
    throw new ToolError(error.code, `${error.message}${hint}`);
  }
  const output = resultText(result);
  if (result.isError === true) {
    throw new ToolError(
      "mcp.tool_error",
      output === "" ? `"${spec.info.tool.name}" failed without a message` : output,
    );
  }
  return { output };
}

const PROGRESS_MESSAGE_LIMIT = 1000;

function progressUpdate(progress: McpProgress): ToolProgress {
  return {
    progress: progress.progress,
    ...(progress.total === undefined ? {} : { total: progress.total }),
    // A server's text, bounded: every face is sent each report.
    ...(typeof progress.message === "string" && progress.message !== ""
      ? { message: progress.message.slice(0, PROGRESS_MESSAGE_LIMIT) }
      : {}),
  };
}

/** The model-facing text of a result. */
export function resultText(result: CallToolResult): string {
  const content: readonly Part[] = result.content ?? [];
  const parts = content.map(contentText);
  const hasText = content.some((part) => part.type === "text");
  if (result.structuredContent !== undefined && !hasText) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  return parts.join("\n");
}

type Part = CallToolResult["content"][number];

function contentText(part: Part): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "image":
    case "audio":
      return `[${part.type} (${part.mimeType}, ${base64Bytes(part.data)} bytes) not shown]`;
    case "resource": {
      const resource = part.resource;
      if ("text" in resource && typeof resource.text === "string") return resource.text;
      return `[resource ${resource.uri}${
        resource.mimeType ? ` (${resource.mimeType})` : ""
      }, binary, not shown]`;
    }
    case "resource_link":
      return `[resource link ${part.uri}${part.name ? ` "${part.name}"` : ""}]`;
    default:
      return `[${(part as { type: string }).type} content not shown]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
