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

/** A background job swapping `d` with a symlink to `target` until killed, like a model's run_in_background loop. */
function startSwapper(root: string, target: string): Deno.ChildProcess {
  const script = `cd "$1" || exit 1; ln -sfn "$2" l
while :; do mv -T d d.real; mv -T l d; mv -T d l; mv -T d.real d; done`;
  return new Deno.Command("bash", {
    args: ["-c", script, "swap", root, target],
    stdout: "null",
    stderr: "null",
  })
    .spawn();
}

async function stopSwapper(child: Deno.ChildProcess, root: string): Promise<void> {
  child.kill("SIGKILL");
  await child.status;
  // The loop may die between renames (and write_file may have made a fresh `d` meanwhile): put the
  // real directory back where the assertions expect it.
  const script = `cd "$1" || exit 1
for name in d.real l; do
  if [ -d "$name" ] && [ ! -L "$name" ]; then rm -rf d; mv -T "$name" d; fi
done
rm -f l`;
  await new Deno.Command("bash", { args: ["-c", script, "restore", root] }).output();
}

type Call = (ctx: ToolContext, i: number) => Promise<string>;

const CALLS: Record<string, Call> = {
  write_file: async (ctx, i) =>
    (await writeFileTool.execute({ path: "d/config.toml", content: `pwned ${i}\n` }, ctx)).output,
  edit_file: async (ctx) =>
    (await editFileTool.execute(
      { path: "d/config.toml", old_string: "api_key", new_string: "pwned_key" },
      ctx,
    ))
      .output,
  multi_edit: async (ctx) =>
    (await multiEditTool.execute({
      path: "d/config.toml",
      edits: [{ old_string: "api_key", new_string: "pwned_key", replace_all: true }],
    }, ctx)).output,
  notebook_edit: async (ctx) =>
    (await notebookEditTool.execute({ path: "d/nb.ipynb", cell_number: 0, new_source: "pwned()" }, ctx))
      .output,
  move_file: async (ctx) =>
    (await moveFileTool.execute({
      source_path: "d/config.toml",
      destination_path: "moved.toml",
      overwrite: true,
    }, ctx))
      .output,
  read_file: async (ctx) => (await readFileTool.execute({ path: "d/config.toml" }, ctx)).output,
};

for (const [name, call] of Object.entries(CALLS)) {
  Deno.test(`${name} cannot be raced outside the workspace by a symlink swap loop`, async () => {
    await using ws = await makeTestWorkspace();
    const home = ws.outside;
    await Deno.writeTextFile(join(home, "config.toml"), SECRET);
    await Deno.writeTextFile(join(home, "nb.ipynb"), NOTEBOOK);
    const before = (await Array.fromAsync(Deno.readDir(home))).map((entry) => entry.name).sort();
    await ws.write("d/config.toml", "api_key = inside\n");
    await ws.write("d/nb.ipynb", NOTEBOOK);
    const swapper = startSwapper(ws.root, home);
    const outcomes = { ok: 0, refused: 0 };
    try {
      const deadline = Date.now() + 2500;
      for (let i = 0; Date.now() < deadline; i++) {
        try {
          const output = await call(ws.ctx, i);
          assert.ok(!output.includes("SECRET"), `${name} returned the outside file: ${output}`);
          outcomes.ok++;
        } catch (error) {
          if (!(error instanceof ToolError)) throw error;
          outcomes.refused++;
        }
        if (name === "move_file") {
          await Deno.rename(join(ws.root, "moved.toml"), join(ws.root, "d/config.toml")).catch(() => {});
        }
      }
    } finally {
      await stopSwapper(swapper, ws.root);
    }
    const state = new TextDecoder().decode(
      (await new Deno.Command("bash", { args: ["-c", 'ls -laiR "$1" "$2"', "ls", ws.root, home] }).output())
        .stdout,
    );
    assert.equal(await Deno.readTextFile(join(home, "config.toml")), SECRET, state);
    assert.equal(await Deno.readTextFile(join(home, "nb.ipynb")), NOTEBOOK);
    const after = (await Array.fromAsync(Deno.readDir(home))).map((entry) => entry.name).sort();
    assert.deepEqual(after, before);
    assert.ok(outcomes.ok + outcomes.refused > 5, `only ${JSON.stringify(outcomes)} calls ran`);
  });
}
