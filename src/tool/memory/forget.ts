/**
 * @module
 * `forget`: stops remembering a fact. Its revisions stay in the history (the memory tool can restore
 * it); forgetting always waits for a person, in every permission mode.
 */
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import { applyChange, memoryOf, nextRevision } from "./access.ts";
import { FACT_SCOPES } from "./fact.ts";

const DESCRIPTION = `Forget a remembered fact by name or id (always asks the user; its history is kept).`;

const parameters = z.object({
  name: z.string().describe("The fact's name or id"),
  scope: z.enum(FACT_SCOPES).optional().describe("Only this scope (default: project, then global)"),
});

export const forgetTool = defineTool({
  name: "forget",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  async execute(args, ctx) {
    const memory = memoryOf(ctx);
    const fact = await memory.store.find(args.name.trim(), args.scope);
    if (!fact) {
      throw new ToolError(
        "memory.unknown",
        `There is no remembered fact "${args.name}"; the memory tool (operation "list") shows them`,
      );
    }
    const next = nextRevision(fact, memory.now(), { status: "forgotten" });
    return {
      output: await applyChange({ kind: "forget", next, previous: fact }, ctx, {
        tool: "forget",
        arguments: args,
      }),
    };
  },
});
