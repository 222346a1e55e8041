/**
 * The editor port of the file tools (src/tool/editor_files.ts) on a real workspace: plain UTF-8 text
 * goes through the editor, everything else stays on the disk path, and protected paths are refused
 * before the editor is asked. The editor here is an in-memory one, as a face would supply.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFileTool } from "../../src/tool/builtin/read_file.ts";
import { writeFileTool } from "../../src/tool/builtin/write_file.ts";
import { editFileTool } from "../../src/tool/builtin/edit_file.ts";
import { moveFileTool } from "../../src/tool/builtin/move_file.ts";
import type { EditorFiles } from "../../src/tool/editor_files.ts";
import { type FileTouch, ToolError } from "../../src/tool/tool.ts";
import { makeTestWorkspace } from "./_tool_context.ts";
import type { JobTable } from "../../src/tool/jobs.ts";

function memoryEditor(buffers: Map<string, string>, calls: string[]): EditorFiles {
  return {
    readText: (abs) => {
      calls.push(`read ${abs}`);
      const text = buffers.get(abs);
      return text === undefined ? Promise.reject(new Error("not open")) : Promise.resolve(text);
    },
    writeText: (abs, text) => {
      calls.push(`write ${abs}`);
      buffers.set(abs, text);
      return Promise.resolve();
    },
  };
}

Deno.test("editor files: a binary, UTF-16 or BOM file stays on the disk path", async () => {
  await using ws = await makeTestWorkspace();
  const calls: string[] = [];
  const ctx = { ...ws.ctx, editor: memoryEditor(new Map(), calls) };
  await ws.write(
    "blob.bin",
    new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0]),
  );
  const utf16 = await ws.write("wide.txt", new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0, 0x0a, 0]));
  await ws.write("bom.txt", new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69, 0x0a]));
  await assert.rejects(
    () => readFileTool.execute({ path: "blob.bin" }, ctx),
    (error: unknown) => error instanceof ToolError && error.code === "tool.unsupported_file",
  );
  assert.equal((await readFileTool.execute({ path: "wide.txt" }, ctx)).output, "1\thi");
  await editFileTool.execute({ path: "wide.txt", old_string: "hi", new_string: "ho" }, ctx);
  assert.deepEqual([...await Deno.readFile(utf16)], [0xff, 0xfe, 0x68, 0, 0x6f, 0, 0x0a, 0]);
  assert.equal((await readFileTool.execute({ path: "bom.txt" }, ctx)).output, "1\thi");
  assert.deepEqual(calls, []);
});

Deno.test("editor files: hidden, read-only and outside paths are refused before the editor is asked", async () => {
  await using ws = await makeTestWorkspace({ forbidRead: ["secret.txt"] });
  const calls: string[] = [];
  const buffers = new Map<string, string>();
  ws.ctx.workspace.readOnly = [join(ws.root, ".git", "config")];
  const ctx = { ...ws.ctx, editor: memoryEditor(buffers, calls) };
  const secret = await ws.write("secret.txt", "token\n");
  const config = await ws.write(".git/config", "[core]\n");
  buffers.set(secret, "token buffer\n");
  buffers.set(config, "[core] buffer\n");
  await assert.rejects(() => readFileTool.execute({ path: "secret.txt" }, ctx), /no such file/);
  await assert.rejects(() => writeFileTool.execute({ path: "secret.txt", content: "x" }, ctx), /hidden/);
  await assert.rejects(() => writeFileTool.execute({ path: ".git/config", content: "x" }, ctx), /read-only/);
  await assert.rejects(
    () => readFileTool.execute({ path: join(ws.outside, "x.txt") }, ctx),
    /outside the workspace/,
  );
  // A link a cloned repository plants, pointing out of the workspace: resolved and refused on the host.
  const target = join(ws.outside, "target.txt");
  await Deno.writeTextFile(target, "outside\n");
  buffers.set(target, "outside buffer\n");
  await Deno.symlink(target, join(ws.root, "link.txt"));
  await assert.rejects(() => readFileTool.execute({ path: "link.txt" }, ctx), /outside the workspace/);
  await assert.rejects(() => writeFileTool.execute({ path: "link.txt", content: "x" }, ctx), /outside/);
  assert.deepEqual(calls, []);
});

Deno.test("editor files: a new file goes to the editor when its directory exists, else to the disk", async () => {
  await using ws = await makeTestWorkspace();
  const calls: string[] = [];
  const buffers = new Map<string, string>();
  const ctx = { ...ws.ctx, editor: memoryEditor(buffers, calls) };
  await writeFileTool.execute({ path: "new.txt", content: "fresh\n" }, ctx);
  assert.deepEqual(calls, [`write ${join(ws.root, "new.txt")}`]);
  assert.equal(buffers.get(join(ws.root, "new.txt")), "fresh\n");
  await assert.rejects(() => Deno.stat(join(ws.root, "new.txt")), Deno.errors.NotFound);
  await writeFileTool.execute({ path: "deep/dir/new.txt", content: "made\n" }, ctx);
  assert.equal(await Deno.readTextFile(join(ws.root, "deep/dir/new.txt")), "made\n");
  assert.equal(calls.length, 1);
});

Deno.test("editor files: a failed editor read is the tool's error, and oversized text is refused", async () => {
  await using ws = await makeTestWorkspace();
  const calls: string[] = [];
  const buffers = new Map<string, string>();
  const ctx = { ...ws.ctx, editor: memoryEditor(buffers, calls) };
  await ws.write("closed.txt", "disk\n");
  await assert.rejects(
    () => readFileTool.execute({ path: "closed.txt" }, ctx),
    (error: unknown) =>
      error instanceof ToolError && error.code === "tool.editor_failed" &&
      error.message === 'Cannot read "closed.txt" through the editor: not open',
  );
  const big = await ws.write("big.txt", "small on disk\n");
  buffers.set(big, "x".repeat(64 * 1024 * 1024 + 1));
  await assert.rejects(
    () => readFileTool.execute({ path: "big.txt" }, ctx),
    (error: unknown) => error instanceof ToolError && error.code === "tool.file_too_large",
  );
});

Deno.test("editor files: move_file moves what is on disk, and its checkpoint records the disk's bytes", async () => {
  await using ws = await makeTestWorkspace();
  const calls: string[] = [];
  const buffers = new Map<string, string>();
  const seen: FileTouch[] = [];
  const writes = {
    beforeWrite: (touches: readonly FileTouch[]) => Promise.resolve(void seen.push(...touches)),
  };
  const ctx = { ...ws.ctx, editor: memoryEditor(buffers, calls), writes };
  const source = await ws.write("a.txt", "disk\n");
  buffers.set(source, "unsaved buffer\n");
  await moveFileTool.execute({ source_path: "a.txt", destination_path: "b.txt" }, ctx);
  assert.deepEqual(calls, []);
  assert.equal(await Deno.readTextFile(join(ws.root, "b.txt")), "disk\n");
  assert.equal(new TextDecoder().decode(seen[0]!.before!), "disk\n");
});

Deno.test("editor files: while a background job runs (it could swap a symlink in), text goes through the disk", async () => {
  await using ws = await makeTestWorkspace();
  const calls: string[] = [];
  const buffers = new Map<string, string>([[join(ws.root, "a.txt"), "buffer\n"]]);
  await Deno.writeTextFile(join(ws.root, "a.txt"), "disk\n");
  let running = true;
  const jobs = { list: () => running ? [{ status: "running" }] : [] } as unknown as JobTable;
  const ctx = { ...ws.ctx, editor: memoryEditor(buffers, calls), jobs };
  assert.equal((await readFileTool.execute({ path: "a.txt" }, ctx)).output, "1\tdisk");
  await writeFileTool.execute({ path: "a.txt", content: "from disk path\n" }, ctx);
  assert.equal(await Deno.readTextFile(join(ws.root, "a.txt")), "from disk path\n");
  assert.deepEqual(calls, [], "the editor was never asked");
  running = false;
  assert.equal((await readFileTool.execute({ path: "a.txt" }, ctx)).output, "1\tbuffer");
  assert.deepEqual(calls, [`read ${join(ws.root, "a.txt")}`]);
});
