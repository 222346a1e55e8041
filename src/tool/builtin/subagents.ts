/**
 * @module
 * The subagent tools: `task` (one writer), `read_only_task` (one reader), `parallel_tasks` (readers at
 * once), `fleet` (writers at once, with disjoint `write_paths` checked before anything starts) and
 * `read_subagent_result` (pages one child's answer). All are proxied: reached through
 * `use_capability`, so the tools array never changes. The host runs the children (ToolContext
 * `subagents`); the tools only check arguments, preflight claims and bound what comes back.
 */
import { z } from "zod";
import { ACCEPTED_EFFORTS } from "../../provider/effort.ts";
import { defineTool, type ToolContext, ToolError, type ToolSpec } from "../tool.ts";
import type { SubagentOutcome, SubagentPort, SubagentRequest } from "../subagent_port.ts";
import { describeClaim, firstOverlap, resolveClaim } from "../write_claims.ts";
import { pageResult, previewOf, REF_PATTERN } from "./_subagent_results.ts";

export const SUBAGENT_TOOLS = ["fleet", "parallel_tasks", "read_only_task", "read_subagent_result", "task"];

const effort = z.enum(ACCEPTED_EFFORTS as [string, ...string[]]);

const common = {
  prompt: z.string().min(1).max(100_000).describe(
    "The whole task: the child sees nothing else of this conversation",
  ),
  description: z.string().max(200).optional().describe("A few words shown while it runs"),
  tools: z.array(z.string().max(64)).max(64).optional().describe("Only these tools (narrows, never widens)"),
  max_steps: z.number().int().min(1).max(200).optional().describe("Most tool rounds the child may take"),
  model: z.string().max(100).optional().describe("Model for the child"),
  effort: effort.optional().describe("Reasoning effort for the child"),
};

const writer = {
  ...common,
  profile: z.string().max(100).optional().describe("A subagent profile (a skill) to run as"),
  write_paths: z.array(z.string().min(1).max(4096)).max(64).optional().describe(
    "Files or directories the child may change; omitted = the whole workspace (runs alone among writers)",
  ),
};

const background = z.boolean().optional().describe(
  "Return a ref at once; read_subagent_result reads the answer once it is done",
);

const taskArgs = z.object({
  ...writer,
  run_in_background: background,
  continue_from: z.string().min(1).max(200).optional().describe(
    "A finished child's ref: continue its session with this prompt (its profile, tools and write_paths stay)",
  ),
});
const readerArgs = z.object(common);
const parallelArgs = z.object({
  tasks: z.array(readerArgs).min(1).max(64).describe("Read-only tasks run at once"),
});
const fleetTask = z.object(writer);
const fleetArgs = z.object({
  tasks: z.array(fleetTask).min(2).max(64).describe(
    "Writer tasks run at once; their write_paths must not overlap",
  ),
  fail_fast: z.boolean().optional().describe("Cancel the rest when one fails"),
  run_in_background: background,
});
const readArgs = z.object({
  ref: z.string().min(1).max(200).describe("A ref a subagent tool returned"),
  offset_bytes: z.number().int().min(0).optional().describe("Where to start, in bytes (default 0)"),
  limit_bytes: z.number().int().min(1).max(65_536).optional().describe("How many bytes (default 16384)"),
});

type TaskArgs = z.infer<typeof taskArgs>;
type ReaderArgs = z.infer<typeof readerArgs>;

function port(ctx: ToolContext): SubagentPort {
  if (ctx.subagents) return ctx.subagents;
  throw new ToolError("subagent.unavailable", "Subagents cannot start here (the depth limit or this host)");
}

function requestOf(args: TaskArgs | ReaderArgs, ctx: ToolContext, readOnly: boolean): SubagentRequest {
  const profileName = "profile" in args ? args.profile : undefined;
  const profile = profileName === undefined ? undefined : ctx.profiles?.profile(profileName);
  if (profileName !== undefined && !profile) {
    throw new ToolError("subagent.unknown_profile", `There is no subagent profile named "${profileName}"`);
  }
  const writePaths = "write_paths" in args ? args.write_paths : undefined;
  return {
    prompt: args.prompt,
    readOnly: readOnly || profile?.readOnly === true,
    ...(args.description ? { description: args.description } : {}),
    ...(profile ? { profile } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.effort ? { effort: args.effort } : {}),
    ...(args.tools ? { tools: args.tools } : {}),
    ...(writePaths ? { writePaths } : {}),
    ...(args.max_steps ? { maxSteps: args.max_steps } : {}),
    ...("continue_from" in args && args.continue_from ? { continueFrom: args.continue_from } : {}),
  };
}

function single(outcome: SubagentOutcome): string {
  const page = pageResult(outcome.text, 0);
  const more = page.next === null
    ? ""
    : `\n[answer continues: read_subagent_result ref "${outcome.ref}" offset_bytes ${page.next}]`;
  const status = outcome.ok ? "" : "[the subagent failed] ";
  return `${status}${page.text}${more}\n[subagent session ${outcome.sessionId}, ref "${outcome.ref}"]`;
}

function many(outcomes: readonly (SubagentOutcome | string)[]): string {
  const share = Math.floor(12_000 / Math.max(1, outcomes.length));
  return outcomes.map((outcome, index) => {
    if (typeof outcome === "string") return `## task ${index + 1}: not run\n${outcome}`;
    const head = `## task ${index + 1}: ${outcome.ok ? "done" : "failed"} (ref "${outcome.ref}")`;
    return `${head}\n${previewOf(outcome.text, share)}`;
  }).join("\n\n");
}

/** The port first, then one request per task: with no port, "unavailable" wins over a bad task. */
function batchOf(
  tasks: readonly (TaskArgs | ReaderArgs)[],
  ctx: ToolContext,
  readOnly: boolean,
): { subagents: SubagentPort; requests: SubagentRequest[] } {
  const subagents = port(ctx);
  return { subagents, requests: tasks.map((task) => requestOf(task, ctx, readOnly)) };
}

/** Runs every request at once and previews each answer; a failed start becomes its error line. */
async function runAll(
  subagents: SubagentPort,
  requests: readonly SubagentRequest[],
  signal: AbortSignal,
  onOutcome: (outcome: SubagentOutcome) => void = () => {},
): Promise<string> {
  const runs = requests.map(async (request) => {
    const outcome = await subagents.run(request, signal);
    onOutcome(outcome);
    return outcome;
  });
  const settled = await Promise.allSettled(runs);
  return many(settled.map((item) => item.status === "fulfilled" ? item.value : errorLine(item.reason)));
}

function errorLine(reason: unknown): string {
  return reason instanceof ToolError ? `Error [${reason.code}]: ${reason.message}` : String(reason);
}

export const taskTool = defineTool({
  name: "task",
  description: "Run a subagent with its own context on one task; it may change only its write_paths " +
    "(omitted: the whole workspace). Returns its final answer.",
  parameters: taskArgs,
  readOnly: false,
  async execute(args, ctx) {
    const run = port(ctx).run(requestOf(args, ctx, false), ctx.signal);
    if (args.run_in_background) return { output: inBackground(ctx, run.then(single)) };
    return { output: single(await run) };
  },
});

/** Started: the answer is kept under a ref the model reads later (the turn's interrupt still stops it). */
function inBackground(ctx: ToolContext, run: Promise<string>): string {
  if (!ctx.subagentResults) {
    throw new ToolError("subagent.unavailable", "Background subagents cannot run here");
  }
  const ref = ctx.subagentResults.background(run);
  return `Started in the background; read its answer with read_subagent_result ref "${ref}" once it is done`;
}

export const readOnlyTaskTool = defineTool({
  name: "read_only_task",
  description: "Run a read-only subagent (it cannot change anything) on one task; returns its final answer.",
  parameters: readerArgs,
  readOnly: true,
  async execute(args, ctx) {
    return { output: single(await port(ctx).run(requestOf(args, ctx, true), ctx.signal)) };
  },
});

export const parallelTasksTool = defineTool({
  name: "parallel_tasks",
  description: "Run several read-only subagents at once; returns a preview of each answer and a ref " +
    "for read_subagent_result.",
  parameters: parallelArgs,
  readOnly: true,
  async execute(args, ctx) {
    const { subagents, requests } = batchOf(args.tasks, ctx, true);
    return { output: await runAll(subagents, requests, ctx.signal) };
  },
});

export const fleetTool = defineTool({
  name: "fleet",
  description: "Run 2-64 writer subagents at once, each limited to its write_paths; overlapping claims " +
    "(or two without write_paths) are refused before any starts. Returns a preview of each and a ref.",
  parameters: fleetArgs,
  readOnly: false,
  async execute(args, ctx) {
    const { subagents, requests } = batchOf(args.tasks, ctx, false);
    await preflight(requests, ctx);
    const abort = new AbortController();
    const signal = AbortSignal.any([ctx.signal, abort.signal]);
    const all = runAll(subagents, requests, signal, (outcome) => {
      if (!outcome.ok && args.fail_fast) abort.abort(new ToolError("subagent.cancelled", "fail_fast"));
    });
    return { output: args.run_in_background ? inBackground(ctx, all) : await all };
  },
});

async function preflight(requests: readonly SubagentRequest[], ctx: ToolContext): Promise<void> {
  const writers = requests.filter((request) => !request.readOnly);
  const claims = await Promise.all(writers.map((request) => resolveClaim(ctx.workspace, request.writePaths)));
  const overlap = firstOverlap(claims);
  if (!overlap) return;
  const [a, b] = overlap.map((index) => requests.indexOf(writers[index]!) + 1);
  const [ca, cb] = overlap.map((index) => describeClaim(ctx.workspace, claims[index]!));
  throw new ToolError(
    "subagent.claims_overlap",
    `Nothing started: task ${a} (${ca}) and task ${b} (${cb}) claim overlapping write_paths; give each ` +
      "writer its own files or directories",
  );
}

export const readSubagentResultTool = defineTool({
  name: "read_subagent_result",
  description: "Read a subagent's answer by the ref a subagent tool returned, a page of bytes at a time.",
  parameters: readArgs,
  readOnly: true,
  async execute(args, ctx) {
    if (!REF_PATTERN.test(args.ref)) {
      throw new ToolError("subagent.bad_ref", `"${args.ref}" is not a subagent ref (like "subagent:<id>")`);
    }
    const text = await ctx.subagentResults?.read(args.ref);
    if (text === undefined) {
      throw new ToolError("subagent.unknown_ref", `No subagent result "${args.ref}" in this conversation`);
    }
    const page = pageResult(text, args.offset_bytes ?? 0, args.limit_bytes);
    const next = page.next === null ? "[end]" : `[more: offset_bytes ${page.next} of ${page.total}]`;
    return { output: `${page.text}\n${next}`, truncated: true };
  },
});

export function subagentTools(): ToolSpec[] {
  return [taskTool, readOnlyTaskTool, parallelTasksTool, fleetTool, readSubagentResultTool] as ToolSpec[];
}
