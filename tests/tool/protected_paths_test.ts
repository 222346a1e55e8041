import assert from "node:assert/strict";
import { join } from "node:path";
import { editFileTool } from "../../src/tool/builtin/edit_file.ts";
import { moveFileTool } from "../../src/tool/builtin/move_file.ts";
import { readFileTool } from "../../src/tool/builtin/read_file.ts";
import { writeFileTool } from "../../src/tool/builtin/write_file.ts";
import { makeTestWorkspace, rejectsWithCode } from "./_tool_context.ts";

/** `cd ~ && reasonix`: the Reasonix home is `.reasonix` inside the workspace. */
async function homeInside() {
  const ws = await makeTestWorkspace();
  const home = join(ws.root, ".reasonix");
  await ws.write(".reasonix/.env", "DEEPSEEK_API_KEY=sk-secret\n");
  await ws.write(".reasonix/config.toml", 'model = "x"\n');
  await ws.write("proj/.git/hooks/.keep", "");
  await ws.write(".git/config", "[core]\n");
  ws.ctx.workspace.forbidRead = [home];
  ws.ctx.workspace.readOnly = [join(ws.root, ".git/hooks"), join(ws.root, ".git/config")];
  return ws;
}

Deno.test("read_file treats the Reasonix home inside the workspace as missing", async () => {
  await using ws = await homeInside();
  await rejectsWithCode(readFileTool.execute({ path: ".reasonix/.env" }, ws.ctx), "tool.not_found");
});

Deno.test("writers refuse the Reasonix home inside the workspace", async () => {
  await using ws = await homeInside();
  await rejectsWithCode(
    writeFileTool.execute({ path: ".reasonix/config.toml", content: 'base_url = "evil"\n' }, ws.ctx),
    "tool.path_forbidden",
  );
  await rejectsWithCode(
    editFileTool.execute({ path: ".reasonix/config.toml", old_string: "x", new_string: "y" }, ws.ctx),
    "tool.path_forbidden",
  );
  assert.equal(await Deno.readTextFile(join(ws.root, ".reasonix/config.toml")), 'model = "x"\n');
});

Deno.test("move_file refuses to move the Reasonix home, or a directory holding it", async () => {
  await using ws = await homeInside();
  await ws.write("sub/.keep", "");
  await Deno.rename(join(ws.root, ".reasonix"), join(ws.root, "sub/.reasonix"));
  ws.ctx.workspace.forbidRead = [join(ws.root, "sub/.reasonix")];
  for (const source of ["sub/.reasonix", "sub"]) {
    await rejectsWithCode(
      moveFileTool.execute({ source_path: source, destination_path: "stolen" }, ws.ctx),
      "tool.path_forbidden",
    );
  }
  assert.equal(await Deno.readTextFile(join(ws.root, "sub/.reasonix/.env")), "DEEPSEEK_API_KEY=sk-secret\n");
});

Deno.test("writers refuse .git/hooks and .git/config with a message that says how to allow it", async () => {
  await using ws = await homeInside();
  const error = await rejectsWithCode(
    writeFileTool.execute({ path: ".git/hooks/pre-commit", content: "#!/bin/sh\ncurl evil\n" }, ws.ctx),
    "tool.path_read_only",
  );
  assert.match(error.message, /read-only to tools: hooks run on your machine.*protect_git = false/);
  await rejectsWithCode(
    editFileTool.execute({
      path: ".git/config",
      old_string: "[core]",
      new_string: "[core]\nfsmonitor = evil",
    }, ws.ctx),
    "tool.path_read_only",
  );
  await ws.write("evil/pre-commit", "#!/bin/sh\n");
  await rejectsWithCode(
    moveFileTool.execute({ source_path: "evil", destination_path: ".git/hooks" }, ws.ctx),
    "tool.path_read_only",
  );
  await rejectsWithCode(
    moveFileTool.execute({ source_path: ".git", destination_path: "git-moved" }, ws.ctx),
    "tool.path_read_only",
  );
  await assert.rejects(Deno.stat(join(ws.root, ".git/hooks/pre-commit")), Deno.errors.NotFound);
  assert.equal(await Deno.readTextFile(join(ws.root, ".git/config")), "[core]\n");
});

Deno.test("protected paths compare without case: .GIT/hooks or .Reasonix/ is what a case-insensitive disk opens", async () => {
  await using ws = await homeInside();
  await rejectsWithCode(
    writeFileTool.execute({ path: ".GIT/Hooks/pre-commit", content: "#!/bin/sh\ncurl evil\n" }, ws.ctx),
    "tool.path_read_only",
  );
  await rejectsWithCode(
    writeFileTool.execute({ path: ".git/hook\u017f/pre-commit", content: "#!/bin/sh\ncurl evil\n" }, ws.ctx),
    "tool.path_read_only",
  );
  await rejectsWithCode(
    editFileTool.execute({ path: ".git/CONFIG", old_string: "[core]", new_string: "[core]\nx = y" }, ws.ctx),
    "tool.path_read_only",
  );
  await rejectsWithCode(
    writeFileTool.execute({ path: ".Reasonix/config.toml", content: 'base_url = "evil"\n' }, ws.ctx),
    "tool.path_forbidden",
  );
  await ws.write("look/.keep", "");
  await Deno.rename(join(ws.root, "look"), join(ws.root, "LOOK"));
  ws.ctx.workspace.forbidRead = [join(ws.root, "look")];
  await rejectsWithCode(readFileTool.execute({ path: "LOOK/.keep" }, ws.ctx), "tool.not_found");
});
