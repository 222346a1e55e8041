/**
 * @module
 * A real temp workspace (realpath'd, with a sibling "outside" dir) and a ToolContext for tool tests.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DirectSandbox } from "../../src/sandbox/none.ts";
import { FsAgent, fsAgentSupported } from "../../src/sandbox/fs_agent.ts";
import type { RunOptions, RunResult, Sandbox } from "../../src/sandbox/sandbox.ts";
import type { ToolContext, ToolResult, ToolSpec, Workspace } from "../../src/tool/tool.ts";

export interface TestWorkspace extends AsyncDisposable {
  root: string;
  outside: string;
  ctx: ToolContext;
  write(rel: string, data: string | Uint8Array): Promise<string>;
}

export interface TestWorkspaceOptions {
  sandbox?: Sandbox;
  extraWritable?: string[];
  /** Relative to the workspace root. */
  forbidRead?: string[];
  /** Leave out the file agent, so the bash helper does the anchored I/O. */
  noAgent?: boolean;
}

export async function makeTestWorkspace(options: TestWorkspaceOptions = {}): Promise<TestWorkspace> {
  const temp = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix_tool_" }));
  const root = join(temp, "ws");
  const outside = join(temp, "outside");
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  const workspace: Workspace = {
    root,
    extraWritable: options.extraWritable ?? [],
    forbidRead: (options.forbidRead ?? []).map((rel) => join(root, rel)),
  };
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    workspace,
    sandbox: options.sandbox ?? new DirectSandbox(),
    limits: { bashTimeoutSeconds: 120, outputBudgetBytes: 32000 },
    ...(fsAgentSupported() && !options.noAgent ? { files: new FsAgent(Deno.env.toObject()) } : {}),
  };
  return {
    root,
    outside,
    ctx,
    async write(rel, data) {
      const path = join(root, rel);
      await Deno.mkdir(join(path, ".."), { recursive: true });
      if (typeof data === "string") await Deno.writeTextFile(path, data);
      else await Deno.writeFile(path, data);
      return path;
    },
    async [Symbol.asyncDispose]() {
      await ctx.files?.close();
      await Deno.remove(temp, { recursive: true });
    },
  };
}

/** Records argv calls so a test can prove ripgrep really ran. */
export class RecordingSandbox implements Sandbox {
  readonly name: string = "test-recording";
  readonly argvCalls: string[][] = [];
  readonly #inner = new DirectSandbox();

  runShell(command: string, options: RunOptions): Promise<RunResult> {
    return this.#inner.runShell(command, options);
  }

  runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    this.argvCalls.push([...argv]);
    return this.#inner.runArgv(argv, options);
  }
}

/** A sandbox where `rg` is missing, to exercise the TypeScript fallbacks. */
export class NoRgSandbox extends RecordingSandbox {
  override readonly name: string = "test-no-rg";

  override runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    if (argv[0] !== "rg") return super.runArgv(argv, options);
    this.argvCalls.push([...argv]);
    return Promise.reject(new Deno.errors.NotFound(`Cannot run "rg": not found`));
  }
}

/** The two search back ends glob and grep run on: ripgrep, and the fallback when `rg` is missing. */
export const SEARCH_BACKENDS = [
  { name: "ripgrep", make: (): RecordingSandbox => new RecordingSandbox(), usesRg: true },
  { name: "fallback", make: (): RecordingSandbox => new NoRgSandbox(), usesRg: false },
];

export async function rejectsWithCode(
  promise: Promise<unknown>,
  code: string,
): Promise<Error & { code: string }> {
  try {
    await promise;
  } catch (error) {
    const typed = error as Error & { code: string };
    if (typed.code !== code) {
      throw new Error(`Expected code "${code}", got "${typed.code}": ${typed.message}`);
    }
    return typed;
  }
  throw new Error(`Expected a rejection with code "${code}"`);
}

/** Asserts that `tool` previews `args` as a change of the existing file `path` to `newText`, then runs it. */
export async function previewThenRun<Args>(
  tool: ToolSpec<Args>,
  args: Args,
  t: TestWorkspace,
  change: { path: string; oldText: string; newText: string },
): Promise<ToolResult> {
  assert.deepEqual(await tool.preview!(args, t.ctx), { kind: "modify", ...change });
  return await tool.execute(args, t.ctx);
}
