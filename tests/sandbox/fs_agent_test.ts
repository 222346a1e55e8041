import assert from "node:assert/strict";
import { join } from "node:path";
import { FsAgent, fsAgentSource, fsAgentSupported } from "../../src/sandbox/fs_agent.ts";
import { HOST_FS_EXIT } from "../../src/sandbox/_host_fs_script.ts";

const ignore = !fsAgentSupported();

async function tempRoot(base?: string): Promise<string> {
  return await Deno.realPath(
    await Deno.makeTempDir({ prefix: "reasonix_agent_", ...(base ? { dir: base } : {}) }),
  );
}

Deno.test({
  name: "FsAgent serves overlapping calls from one process and matches replies by id",
  ignore,
  async fn() {
    const root = await tempRoot();
    const agent = new FsAgent(Deno.env.toObject());
    try {
      const writes = Array.from({ length: 20 }, (_, i) =>
        agent.call(
          { op: "write", root, rel: ["a", "b"], name: `f${i}`, mkdirs: true, roots: [root], deny: [] },
          new TextEncoder().encode(`file ${i}`),
        ));
      assert.ok((await Promise.all(writes)).every((answer) => answer.reply.ok));
      const reads = await Promise.all(
        Array.from(
          { length: 20 },
          (_, i) => agent.call({ op: "read", root, rel: ["a", "b"], name: `f${i}`, roots: [root], deny: [] }),
        ),
      );
      assert.deepEqual(reads.map((r) => new TextDecoder().decode(r.data)), reads.map((_, i) => `file ${i}`));
      assert.equal(agent.starts, 1);
    } finally {
      await agent.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "FsAgent refuses a symlinked component, a FIFO and a hidden target, and keeps a file's mode",
  ignore,
  async fn() {
    const root = await tempRoot();
    const agent = new FsAgent(Deno.env.toObject());
    try {
      await Deno.mkdir(join(root, "real"));
      await Deno.symlink(join(root, "real"), join(root, "link"));
      const via = await agent.call({ op: "read", root, rel: ["link"], name: "x", roots: [root], deny: [] });
      assert.equal(via.reply.exit, HOST_FS_EXIT.changed);
      await new Deno.Command("mkfifo", { args: [join(root, "pipe")] }).output();
      const fifo = await agent.call({ op: "read", root, rel: [], name: "pipe", roots: [root], deny: [] });
      assert.equal(fifo.reply.exit, HOST_FS_EXIT.special);
      const deny = [join(root, "real")];
      const hidden = await agent.call({ op: "read", root, rel: ["real"], name: "x", roots: [root], deny });
      assert.equal(hidden.reply.exit, HOST_FS_EXIT.forbidden);
      const folded = [join(root, "REAL")];
      const caseless = await agent.call({
        op: "read",
        root,
        rel: ["real"],
        name: "x",
        roots: [root],
        deny: folded,
      });
      assert.equal(caseless.reply.exit, HOST_FS_EXIT.forbidden, "a hidden path matches without case");
      await Deno.writeTextFile(join(root, "script"), "old", { mode: 0o750 });
      await Deno.chmod(join(root, "script"), 0o750);
      const data = new TextEncoder().encode("new");
      await agent.call({ op: "write", root, rel: [], name: "script", roots: [root], deny: [] }, data);
      assert.equal((await Deno.stat(join(root, "script"))).mode! & 0o777, 0o750);
    } finally {
      await agent.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "FsAgent moves a directory across filesystems by copying it",
  ignore: ignore || !(await Deno.stat("/dev/shm").then((s) => s.isDirectory, () => false)),
  async fn() {
    const root = await tempRoot();
    const other = await tempRoot("/dev/shm");
    const agent = new FsAgent(Deno.env.toObject());
    try {
      await Deno.mkdir(join(root, "tree", "sub"), { recursive: true });
      await Deno.writeTextFile(join(root, "tree", "sub", "f"), "deep");
      await Deno.symlink("sub/f", join(root, "tree", "ln"));
      const answer = await agent.call({
        op: "move",
        root,
        rel: [],
        name: "tree",
        to: { root: other, rel: ["x"], name: "moved" },
        roots: [root, other],
        deny: [],
      });
      assert.ok(answer.reply.ok && answer.reply.copied, JSON.stringify(answer.reply));
      assert.equal(await Deno.readTextFile(join(other, "x", "moved", "sub", "f")), "deep");
      assert.equal(await Deno.readLink(join(other, "x", "moved", "ln")), "sub/f");
      assert.equal(await Deno.stat(join(root, "tree")).catch(() => null), null);
    } finally {
      await agent.close();
      await Deno.remove(root, { recursive: true });
      await Deno.remove(other, { recursive: true });
    }
  },
});

Deno.test({
  name: "the file agent's program exits by itself when its stdin closes",
  ignore,
  async fn() {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", "--quiet", "--ext=js", fsAgentSource()],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const { code, stderr } = await child.output();
    clearTimeout(timer);
    assert.equal(code, 0, new TextDecoder().decode(stderr));
  },
});
