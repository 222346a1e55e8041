import assert from "node:assert/strict";
import { join } from "node:path";
import { editFileTool } from "../../src/tool/builtin/edit_file.ts";
import { moveFileTool } from "../../src/tool/builtin/move_file.ts";
import { multiEditTool } from "../../src/tool/builtin/multi_edit.ts";
import { notebookEditTool } from "../../src/tool/builtin/notebook_edit.ts";
import { readFileTool } from "../../src/tool/builtin/read_file.ts";
import { writeFileTool } from "../../src/tool/builtin/write_file.ts";
import { type ToolContext, ToolError } from "../../src/tool/tool.ts";
import { makeTestWorkspace } from "./_tool_context.ts";

const SECRET = "api_key = SECRET-original\n";
const NOTEBOOK = JSON.stringify({ cells: [{ cell_type: "code", source: ["1"], metadata: {}, outputs: [] }] });

/** A background job swapping `name` with a symlink to `target` until killed, like a model's run_in_background loop. */
function startSwapper(root: string, name: string, target: string): Deno.ChildProcess {
  const script = `cd "$1" || exit 1; d="$2"; ln -sfn "$3" l
while :; do mv -T "$d" d.real; mv -T l "$d"; mv -T "$d" l; mv -T d.real "$d"; done`;
  return new Deno.Command("bash", {
    args: ["-c", script, "swap", root, name, target],
    stdout: "null",
    stderr: "null",
  })
    .spawn();
}

async function stopSwapper(child: Deno.ChildProcess, root: string, name: string): Promise<void> {
  child.kill("SIGKILL");
  await child.status;
  // The loop may die between renames (and write_file may have made a fresh directory meanwhile): put
  // the real directory back where the assertions expect it.
  const script = `cd "$1" || exit 1; d="$2"
for name in d.real l; do
  if [ -d "$name" ] && [ ! -L "$name" ]; then rm -rf "$d"; mv -T "$name" "$d"; fi
done
rm -f l`;
  await new Deno.Command("bash", { args: ["-c", script, "restore", root, name] }).output();
}

/**
 * Puts move_file's result back into `d`. A plain rename to "d/config.toml" would follow `d` while it
 * is the symlink and carry the workspace file into the fake home (this test's own escape, seen as
 * "config.toml holds the workspace text"), so it enters `d` with cd -P and checks where it landed.
 */
async function moveBack(root: string): Promise<void> {
  const script = `cd -P -- "$1/d" 2>/dev/null || exit 0
case "$(readlink /proc/self/cwd)" in "$1"/*) ;; *) exit 0 ;; esac
mv -f -T -- "$1/moved.toml" ./config.toml 2>/dev/null`;
  await new Deno.Command("bash", { args: ["-c", script, "back", root] }).output();
}

type Call = (ctx: ToolContext, i: number, dir: string) => Promise<string>;

const CALLS: Record<string, Call> = {
  write_file: async (ctx, i, dir) =>
    (await writeFileTool.execute({ path: `${dir}/config.toml`, content: `pwned ${i}\n` }, ctx)).output,
  edit_file: async (ctx, _i, dir) =>
    (await editFileTool.execute(
      { path: `${dir}/config.toml`, old_string: "api_key", new_string: "pwned_key" },
      ctx,
    ))
      .output,
  multi_edit: async (ctx, _i, dir) =>
    (await multiEditTool.execute({
      path: `${dir}/config.toml`,
      edits: [{ old_string: "api_key", new_string: "pwned_key", replace_all: true }],
    }, ctx)).output,
  notebook_edit: async (ctx, _i, dir) =>
    (await notebookEditTool.execute({ path: `${dir}/nb.ipynb`, cell_number: 0, new_source: "pwned()" }, ctx))
      .output,
  move_file: async (ctx, _i, dir) =>
    (await moveFileTool.execute({
      source_path: `${dir}/config.toml`,
      destination_path: "moved.toml",
      overwrite: true,
    }, ctx))
      .output,
  read_file: async (ctx, _i, dir) => (await readFileTool.execute({ path: `${dir}/config.toml` }, ctx)).output,
};

interface Race {
  /** The directory the tool names; its first component is swapped. */
  dir: string;
  /** Where the symlink points: the fake home outside, or a hidden directory inside the workspace. */
  target: "home" | "hidden";
  /** Use the bash helper instead of the file agent (a compiled binary's path). */
  noAgent?: boolean;
}

async function race(name: string, call: Call, setup: Race): Promise<void> {
  await using ws = await makeTestWorkspace({ forbidRead: ["secret"], noAgent: setup.noAgent ?? false });
  const swapped = setup.dir.split("/")[0]!;
  const link = setup.target === "home" ? ws.outside : join(ws.root, "secret");
  const victim = join(link, ...setup.dir.split("/").slice(1));
  await Deno.mkdir(victim, { recursive: true });
  await Deno.writeTextFile(join(victim, "config.toml"), SECRET);
  await Deno.writeTextFile(join(victim, "nb.ipynb"), NOTEBOOK);
  const before = (await Array.fromAsync(Deno.readDir(victim))).map((entry) => entry.name).sort();
  await ws.write(`${setup.dir}/config.toml`, "api_key = inside\n");
  await ws.write(`${setup.dir}/nb.ipynb`, NOTEBOOK);
  const swapper = startSwapper(ws.root, swapped, link);
  const outcomes = { ok: 0, refused: 0 };
  try {
    const deadline = Date.now() + 2500;
    for (let i = 0; Date.now() < deadline; i++) {
      try {
        const output = await call(ws.ctx, i, setup.dir);
        assert.ok(!output.includes("SECRET"), `${name} returned the protected file: ${output}`);
        outcomes.ok++;
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        outcomes.refused++;
      }
      if (name === "move_file") await moveBack(ws.root);
    }
  } finally {
    await stopSwapper(swapper, ws.root, swapped);
  }
  const state = new TextDecoder().decode(
    (await new Deno.Command("bash", { args: ["-c", 'ls -laiR "$1" "$2"', "ls", ws.root, link] }).output())
      .stdout,
  );
  assert.equal(await Deno.readTextFile(join(victim, "config.toml")), SECRET, state);
  assert.equal(await Deno.readTextFile(join(victim, "nb.ipynb")), NOTEBOOK);
  const after = (await Array.fromAsync(Deno.readDir(victim))).map((entry) => entry.name).sort();
  assert.deepEqual(after, before);
  assert.ok(outcomes.ok + outcomes.refused > 5, `only ${JSON.stringify(outcomes)} calls ran`);
}

for (const [name, call] of Object.entries(CALLS)) {
  Deno.test(`${name} cannot be raced outside the workspace by a symlink swap loop`, async () => {
    await race(name, call, { dir: "d", target: "home" });
  });
}

for (const name of ["read_file", "write_file"]) {
  Deno.test(`${name} cannot be raced into a hidden directory inside the workspace`, async () => {
    await race(name, CALLS[name]!, { dir: "d", target: "hidden" });
  });
  Deno.test(`${name} cannot be raced outside through a swapped parent of a parent`, async () => {
    await race(name, CALLS[name]!, { dir: "a/b", target: "home" });
  });
}

for (const name of ["write_file", "move_file"]) {
  Deno.test(`${name} through the bash helper cannot be raced outside the workspace`, async () => {
    await race(name, CALLS[name]!, { dir: "d", target: "home", noAgent: true });
  });
}
