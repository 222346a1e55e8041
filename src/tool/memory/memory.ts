/**
 * @module
 * `memory`: reads what is remembered (list, search, show, history) and restores an earlier revision of
 * a fact. A restore writes a new revision (nothing is overwritten), never over an active fact or onto a
 * name another fact holds, and waits for a person like every change but a new project fact.
 */
import { z } from "zod";
import { defineTool, type ToolContext, ToolError } from "../tool.ts";
import { applyChange, memoryOf, nextRevision } from "./access.ts";
import { type Fact, FACT_SCOPES, FACT_TYPES, type FactScope, formatFact } from "./fact.ts";
import { safe } from "./index_text.ts";
import { recallFacts } from "./recall.ts";

const DESCRIPTION =
  `Read remembered facts: "list" (scope, type, limit), "search" (query), "show" and "history" (name or id), or "restore" an earlier revision (name or id, revision; asks the user).`;

const OPERATIONS = ["list", "search", "show", "history", "restore"] as const;
const LIST_LIMIT = 50;

const parameters = z.object({
  operation: z.enum(OPERATIONS),
  query: z.string().optional().describe("For search"),
  name: z.string().optional().describe("A fact's name or id (show, history, restore)"),
  revision: z.number().int().min(1).optional().describe("For restore"),
  type: z.enum(FACT_TYPES).optional(),
  scope: z.enum(FACT_SCOPES).optional(),
  limit: z.number().int().min(1).max(200).optional(),
});

type MemoryArgs = z.infer<typeof parameters>;

export const memoryTool = defineTool({
  name: "memory",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  async execute(args, ctx) {
    const memory = memoryOf(ctx);
    switch (args.operation) {
      case "list": {
        const facts = (await memory.store.list(args.scope)).filter((fact) =>
          !args.type || fact.type === args.type
        );
        return { output: listing(facts, args.limit ?? LIST_LIMIT) };
      }
      case "search":
        return { output: await search(ctx, args) };
      case "show":
        return { output: formatFact(await named(ctx, args)) };
      case "history": {
        const fact = await named(ctx, args);
        const revisions = await memory.store.revisions(fact.id, fact.scope);
        return { output: revisions.map(revisionLine).join("\n") };
      }
      case "restore":
        return { output: await restore(ctx, args) };
    }
  },
});

function listing(facts: readonly Fact[], limit: number): string {
  if (facts.length === 0) return "Nothing is remembered yet (remember saves a fact)";
  const lines = facts.slice(0, limit).map((fact) =>
    `${fact.name} (id ${fact.id}, ${fact.scope}, ${fact.type}, revision ${fact.revision}, updated ` +
    `${fact.updated.slice(0, 10)}): ${safe(fact.description)}`
  );
  if (facts.length > limit) lines.push(`(${facts.length - limit} more: raise limit)`);
  return lines.join("\n");
}

async function search(ctx: ToolContext, args: MemoryArgs): Promise<string> {
  const memory = memoryOf(ctx);
  if (!args.query?.trim()) throw new ToolError("tool.invalid_args", `memory "search" needs a query`);
  const facts = (await memory.store.list(args.scope)).filter((fact) => !args.type || fact.type === args.type);
  const found = recallFacts(facts, args.query, { now: memory.now(), limit: args.limit ?? 8 });
  if (found.length === 0) {
    return `No remembered fact matches "${safe(args.query)}"; try other words, or operation "list"`;
  }
  return found.map(({ fact, body }) =>
    `${fact.name} (id ${fact.id}, ${fact.scope}, ${fact.type}): ${safe(body)}`
  )
    .join("\n");
}

/** An active fact by name or id, else (by id) the latest revision of a forgotten one. */
async function named(ctx: ToolContext, args: MemoryArgs): Promise<Fact> {
  const store = memoryOf(ctx).store;
  const ref = args.name?.trim() ?? "";
  if (ref === "") throw new ToolError("tool.invalid_args", `memory "${args.operation}" needs a name or id`);
  const active = await store.find(ref, args.scope);
  if (active) return active;
  const scopes: FactScope[] = args.scope ? [args.scope] : ["project", "global"];
  if (/^m-[a-z0-9]+$/.test(ref)) {
    for (const scope of scopes) {
      const latest = await store.latest(ref, scope);
      if (latest) return latest;
    }
  }
  throw new ToolError(
    "memory.unknown",
    `There is no remembered fact "${ref}" (a forgotten one is found by its id)`,
  );
}

async function restore(ctx: ToolContext, args: MemoryArgs): Promise<string> {
  const memory = memoryOf(ctx);
  const latest = await named(ctx, args);
  if (args.revision === undefined) {
    throw new ToolError("tool.invalid_args", `memory "restore" needs a revision`);
  }
  if (latest.status === "active") {
    throw new ToolError(
      "memory.refused",
      `Not restored: "${latest.name}" is active at revision ${latest.revision} and a restore never overwrites ` +
        `it; use remember with its id to change it`,
    );
  }
  const revisions = await memory.store.revisions(latest.id, latest.scope);
  const wanted = revisions.find((fact) => fact.revision === args.revision && fact.status === "active");
  if (!wanted) {
    throw new ToolError("memory.unknown", `"${latest.id}" has no saved revision ${args.revision} to restore`);
  }
  const holder = (await memory.store.list(latest.scope)).find((fact) => fact.name === wanted.name);
  if (holder) {
    throw new ToolError(
      "memory.collision",
      `Not restored: the name "${wanted.name}" now belongs to ${holder.id}; forget or rename that one first`,
    );
  }
  const next = nextRevision(latest, memory.now(), {
    name: wanted.name,
    description: wanted.description,
    type: wanted.type,
    body: wanted.body,
    status: "active",
  });
  return await applyChange({ kind: "restore", next, previous: latest }, ctx, {
    tool: "memory",
    arguments: args,
  });
}

function revisionLine(fact: Fact): string {
  return `revision ${fact.revision} (${fact.status}, ${fact.updated}): ${safe(fact.description)}`;
}
