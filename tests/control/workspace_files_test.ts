import assert from "node:assert/strict";
import { join } from "node:path";
import { directoriesOf, WorkspaceFiles } from "../../src/control/workspace_files.ts";
import { DirectSandbox } from "../../src/sandbox/none.ts";
import { makeWorkspace, removeAll } from "../support/cli.ts";

async function lister(files: Record<string, string>, options: { forbid?: string[]; maxFiles?: number } = {}) {
  const root = await makeWorkspace(files);
  let now = 0;
  const workspace = { root, extraWritable: [], forbidRead: (options.forbid ?? []).map((p) => join(root, p)) };
  const list = new WorkspaceFiles({
    context: {
      workspace,
      sandbox: new DirectSandbox(),
      limits: { bashTimeoutSeconds: 30, outputBudgetBytes: 32000 },
    },
    now: () => now,
    ...(options.maxFiles ? { maxFiles: options.maxFiles } : {}),
  });
  return { root, list, advance: (ms: number) => now += ms };
}

Deno.test("WorkspaceFiles lists files and their directories, respecting .gitignore, .git and forbid_read", async () => {
  const { root, list } = await lister({
    ".gitignore": "dist/\n*.log\n",
    "src/app.tsx": "",
    "src/lib/util.ts": "",
    "dist/out.js": "",
    "debug.log": "",
    ".git/HEAD": "ref: refs/heads/main\n",
    "node_modules/pkg/index.js": "",
    "secret/key.pem": "",
  }, { forbid: ["secret"] });
  try {
    assert.deepEqual(await list.list(), ["src/", "src/lib/", ".gitignore", "src/app.tsx", "src/lib/util.ts"]);
  } finally {
    await removeAll(root);
  }
});

Deno.test("WorkspaceFiles caches the list briefly, then walks again", async () => {
  const { root, list, advance } = await lister({ "a.txt": "" });
  try {
    assert.deepEqual(await list.list(), ["a.txt"]);
    await Deno.writeTextFile(join(root, "b.txt"), "");
    assert.deepEqual(await list.list(), ["a.txt"], "within the cache window");
    advance(10_000);
    assert.deepEqual(await list.list(), ["a.txt", "b.txt"]);
  } finally {
    await removeAll(root);
  }
});

Deno.test("WorkspaceFiles caps the number of files", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, "0")}.txt`] = "";
  const { root, list } = await lister(files, { maxFiles: 10 });
  try {
    const listed = await list.list();
    assert.equal(listed.length, 10);
    assert.equal(listed[0], "f00.txt");
  } finally {
    await removeAll(root);
  }
});

Deno.test("directoriesOf() gives every enclosing directory once, sorted", () => {
  assert.deepEqual(directoriesOf(["a/b/c.ts", "a/d.ts", "e.ts"]), ["a/", "a/b/"]);
});
