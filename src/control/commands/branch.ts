/**
 * @module
 * `/branch [name]`, `/switch [name]`, `/tree`: conversation branches. The work is the Controller's
 * branch port (control/branches.ts); this only parses and prints.
 */
import { errorMessage } from "../../lib/errors.ts";
import type { BranchPort, BranchSummary } from "../branches.ts";
import type { ChildSummary } from "../subagent_pool.ts";
import { escapeControls } from "../../lib/terminal_text.ts";
import type { CommandContext, SlashCommand } from "./registry.ts";

const FILES_STAY = "Files on disk are not switched with branches (use /rewind for code).";

export function branchCommands(): SlashCommand[] {
  return [branchCommand, switchCommand, treeCommand];
}

const branchCommand: SlashCommand = {
  name: "branch",
  aliases: [],
  summary: "Fork the conversation here onto a new branch",
  usage: "/branch [name]",
  run: (ctx, args) =>
    withBranches(ctx, async (branches) => {
      const name = await branches.fork(args.trim() || undefined);
      ctx.print(`Now on branch ${name}; /switch goes back. ${FILES_STAY}`);
    }),
};

const switchCommand: SlashCommand = {
  name: "switch",
  aliases: [],
  summary: "Move the conversation to another branch (no name: list them)",
  usage: "/switch [name]",
  run: (ctx, args) =>
    withBranches(ctx, async (branches) => {
      const name = args.trim();
      if (name === "") {
        return ctx.print([...treeLines(branches.list()), "", "/switch <name> moves there"].join("\n"));
      }
      const current = branches.list().find((branch) => branch.current)?.name;
      if (name === current) return ctx.print(`Already on branch ${name}`);
      const done = await branches.switchTo(name);
      ctx.print(`Switched to branch ${done.name} (${plural(done.turns, "turn")}). ${FILES_STAY}`);
    }),
};

const treeCommand: SlashCommand = {
  name: "tree",
  aliases: ["branches"],
  summary: "Show the conversation's branches",
  usage: "/tree",
  run: (ctx) =>
    withBranches(ctx, async (branches) => {
      const children = subagentLines(
        await ctx.host.workspaceOps?.subagents?.known() ?? [],
        ctx.host.sessionId,
      );
      ctx.print([...treeLines(branches.list()), ...children].join("\n"));
    }),
};

/** The port's errors already say what failed ("Cannot switch to …"). */
async function withBranches(
  ctx: CommandContext,
  body: (branches: BranchPort) => void | Promise<void>,
): Promise<void> {
  const branches = ctx.host.branches;
  if (!branches) return ctx.print("Branches are not available here");
  try {
    await body(branches);
  } catch (error) {
    ctx.print(errorMessage(error));
  }
}

/** Children under their parent, the current branch marked with `*`. */
export function treeLines(branches: readonly BranchSummary[]): string[] {
  const lines: string[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const branch of branches.filter((candidate) => candidate.parent === parent)) {
      const mark = branch.current ? "*" : " ";
      const fork = branch.parent === null ? "" : ` · from ${branch.parent} at turn ${branch.forkTurn}`;
      const prompt = branch.lastPrompt === null ? "" : ` · last: ${oneLine(branch.lastPrompt)}`;
      lines.push(
        `${mark} ${"  ".repeat(depth)}${branch.name} · ${plural(branch.turns, "turn")}${fork}${prompt}`,
      );
      visit(branch.name, depth + 1);
    }
  };
  visit(null, 0);
  return lines;
}

/** The conversation's subagents under the session that started each, after the branches. */
export function subagentLines(children: readonly ChildSummary[], root: string): string[] {
  if (children.length === 0) return [];
  const lines = ["", "subagents:"];
  const visit = (parent: string, depth: number) => {
    for (const child of children.filter((candidate) => candidate.parentId === parent)) {
      const what = escapeControls(oneLine(child.description));
      lines.push(
        `  ${"  ".repeat(depth)}${child.sessionId} · ${child.status} · ${
          child.writer ? "writer" : "reader"
        } · ${what}`,
      );
      visit(child.sessionId, depth + 1);
    }
  };
  visit(root, 0);
  return lines;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function oneLine(text: string): string {
  const line = text.split("\n")[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
