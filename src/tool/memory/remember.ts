/**
 * @module
 * `remember`: saves a fact for later sessions, or updates one (by `id`, or an existing `name`). A new,
 * small, harmless project fact is saved at once; anything else waits for a person (policy.ts).
 */
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import { applyChange, memoryOf, nextRevision } from "./access.ts";
import { type Fact, FACT_SCOPES, FACT_TYPES, factName, newFactId, oneLine } from "./fact.ts";
import { duplicateOf, MAX_BODY, MAX_DESCRIPTION, type MemoryChange } from "./policy.ts";
import type { MemoryStore } from "./store.ts";

const DESCRIPTION =
  `Remember: save a fact or note for later sessions (the next sessions see it; kept outside the workspace; a small new project fact is saved at once, anything else asks the user). Give the same name or the id to update a fact.`;

const parameters = z.object({
  description: z.string().describe("One line: what the fact is about"),
  body: z.string().describe("The fact itself"),
  name: z.string().optional().describe("Short handle; an existing one updates that fact"),
  id: z.string().optional().describe("Update this fact"),
  type: z.enum(FACT_TYPES).optional().describe("Default project; user and feedback are preferences"),
  scope: z.enum(FACT_SCOPES).optional().describe("Default project; global reaches every project"),
});

type RememberArgs = z.infer<typeof parameters>;

export const rememberTool = defineTool({
  name: "remember",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  async execute(args, ctx) {
    const memory = memoryOf(ctx);
    const change = await planRemember(memory.store, args, memory.now());
    if (change === null) return { output: "Already remembered as given: nothing changed" };
    return { output: await applyChange(change, ctx, { tool: "remember", arguments: args }) };
  },
});

/** The change `args` ask for; null when the fact is already stored exactly so. */
export async function planRemember(
  store: MemoryStore,
  args: RememberArgs,
  now: Date,
): Promise<MemoryChange | null> {
  const description = oneLine(args.description);
  const body = args.body.trim();
  if (description === "" || body === "") {
    throw new ToolError("tool.invalid_args", "remember needs a one-line description and a non-empty body");
  }
  if (description.length > MAX_DESCRIPTION || body.length > MAX_BODY) {
    throw new ToolError(
      "memory.too_large",
      `Not saved: memory keeps short facts (description up to ${MAX_DESCRIPTION} characters, body up to ` +
        `${MAX_BODY}); save the essentials, or keep long text in a file of the project`,
    );
  }
  const scope = args.scope ?? "project";
  const type = args.type ?? "project";
  const existing = await existingFact(store, args);
  if (existing) {
    const name = args.name === undefined ? existing.name : factName(args.name) || existing.name;
    if (
      existing.description === description && existing.body === body && existing.type === type &&
      existing.name === name
    ) {
      return null;
    }
    return {
      kind: "update",
      next: nextRevision(existing, now, { description, body, type, name }),
      previous: existing,
    };
  }
  const active = await store.list();
  const same = (fact: Fact) => fact.scope === scope && fact.description === description && fact.body === body;
  if (args.name === undefined && active.some(same)) return null;
  const name = freeName(
    factName(args.name ?? description) || "fact",
    active.filter((fact) => fact.scope === scope),
  );
  const at = now.toISOString();
  const next: Fact = {
    id: newFactId(),
    name,
    description,
    type,
    scope,
    revision: 1,
    created: at,
    updated: at,
    status: "active",
    body,
  };
  const duplicate = duplicateOf(active, next);
  return { kind: "create", next, previous: null, ...(duplicate ? { duplicateOf: duplicate } : {}) };
}

/** The fact an id names (in any scope unless one is given), or the one with this name in the scope. */
async function existingFact(store: MemoryStore, args: RememberArgs) {
  if (args.id !== undefined) {
    const found = await store.find(args.id, args.scope);
    if (!found || found.id !== args.id) {
      throw new ToolError(
        "memory.unknown",
        `There is no active fact with id "${args.id}"; the memory tool (operation "list") shows them`,
      );
    }
    return found;
  }
  if (args.name === undefined) return undefined;
  const name = factName(args.name);
  return (await store.list(args.scope ?? "project")).find((fact) => fact.name === name);
}

/** `name`, or `name-2`, `name-3`… when another fact of the scope has it. */
function freeName(name: string, facts: readonly Fact[]): string {
  const taken = new Set(facts.map((fact) => fact.name));
  if (!taken.has(name)) return name;
  for (let n = 2;; n++) if (!taken.has(`${name}-${n}`)) return `${name}-${n}`;
}
