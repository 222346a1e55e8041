import assert from "node:assert/strict";
import { join } from "node:path";
import { readFileTool } from "../../../src/tool/builtin/read_file.ts";
import { readPlain } from "../../../src/tool/confined_fs.ts";
import { makeTestWorkspace, rejectsWithCode } from "../_tool_context.ts";
import { mkfifo, promptly } from "../_fifo.ts";

function numbered(from: number, lines: string[]): string {
  return lines.map((line, i) => `${from + i}\t${line}`).join("\n");
}

Deno.test("readFileTool numbers lines from 1 and strips CR", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.txt", "one\r\ntwo\nthree");
  const result = await readFileTool.execute({ path: "a.txt" }, t.ctx);
  assert.deepEqual(result, {
    output: numbered(1, ["one", "two", "three"]),
    data: { kind: "read", path: "a.txt", lines: 3, offset: 0, totalLines: 3 },
  });
});

Deno.test("readFileTool writes an unpadded number and a tab before each line, whatever its indentation", async () => {
  await using t = await makeTestWorkspace();
  const lines = Array.from({ length: 11 }, (_, i) => i === 9 ? "\tten" : i === 10 ? "  eleven" : `l${i + 1}`);
  await t.write("a.txt", lines.join("\n") + "\n");
  const result = await readFileTool.execute({ path: "a.txt", offset: 8 }, t.ctx);
  assert.equal(result.output, "9\tl9\n10\t\tten\n11\t  eleven");
});

Deno.test("readFileTool pages with offset and limit and says where to continue", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.txt", Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  const page = await readFileTool.execute({ path: "a.txt", offset: 2, limit: 3 }, t.ctx);
  assert.equal(
    page.output,
    `${numbered(3, ["line 3", "line 4", "line 5"])}\n\n[showing lines 3-5 of 10; use offset=5 to read more]`,
  );
  const tail = await readFileTool.execute({ path: "a.txt", offset: 8 }, t.ctx);
  assert.equal(tail.output, numbered(9, ["line 9", "line 10"]));
  const error = await rejectsWithCode(
    readFileTool.execute({ path: "a.txt", offset: 10 }, t.ctx),
    "tool.invalid_offset",
  );
  assert.match(error.message, /has 10 lines/);
});

Deno.test("readFileTool clips very long lines", async () => {
  await using t = await makeTestWorkspace();
  await t.write("long.txt", "x".repeat(5000) + "\nshort\n");
  const result = await readFileTool.execute({ path: "long.txt" }, t.ctx);
  const [first, second] = result.output.split("\n");
  assert.equal(first, `1\t${"x".repeat(2000)}… [line clipped]`);
  assert.equal(second, `2\tshort`);
});

Deno.test("readFileTool reports an empty file", async () => {
  await using t = await makeTestWorkspace();
  await t.write("empty.txt", "");
  assert.deepEqual(await readFileTool.execute({ path: "empty.txt" }, t.ctx), {
    output: 'File "empty.txt" is empty (0 bytes)',
  });
});

Deno.test("readFileTool refuses directories with a hint to use ls", async () => {
  await using t = await makeTestWorkspace();
  await Deno.mkdir(join(t.root, "src"));
  const error = await rejectsWithCode(readFileTool.execute({ path: "src" }, t.ctx), "tool.not_a_file");
  assert.match(error.message, /use ls/);
});

Deno.test("readFileTool reports missing and forbidden files the same way", async () => {
  await using t = await makeTestWorkspace({ forbidRead: [".env"] });
  await t.write(".env", "SECRET=1");
  const missing = await rejectsWithCode(readFileTool.execute({ path: "nope.txt" }, t.ctx), "tool.not_found");
  const hidden = await rejectsWithCode(readFileTool.execute({ path: ".env" }, t.ctx), "tool.not_found");
  assert.equal(missing.message, 'Cannot access "nope.txt": no such file or directory');
  assert.equal(hidden.message, 'Cannot access ".env": no such file or directory');
});

Deno.test("readFileTool refuses paths outside the workspace and symlinks out", async () => {
  await using t = await makeTestWorkspace();
  await Deno.writeTextFile(join(t.outside, "secret.txt"), "secret");
  await Deno.symlink(join(t.outside, "secret.txt"), join(t.root, "link.txt"));
  await rejectsWithCode(
    readFileTool.execute({ path: "../outside/secret.txt" }, t.ctx),
    "tool.path_traversal",
  );
  await rejectsWithCode(
    readFileTool.execute({ path: join(t.outside, "secret.txt") }, t.ctx),
    "tool.path_outside_workspace",
  );
  await rejectsWithCode(readFileTool.execute({ path: "link.txt" }, t.ctx), "tool.path_outside_workspace");
});

Deno.test("readFileTool detects binary files", async () => {
  await using t = await makeTestWorkspace();
  await t.write("blob.bin", new Uint8Array([1, 2, 0, 3, 4, 5, 6, 7, 8, 9]));
  const random = new Uint8Array(4096);
  for (let i = 0; i < random.length; i++) random[i] = 0x80 + ((i * 37) % 0x40);
  await t.write("latin.bin", random);
  const error = await rejectsWithCode(
    readFileTool.execute({ path: "blob.bin" }, t.ctx),
    "tool.unsupported_file",
  );
  assert.equal(error.message, 'Cannot read "blob.bin": it looks like a binary file (10 bytes), not text');
  await rejectsWithCode(readFileTool.execute({ path: "latin.bin" }, t.ctx), "tool.unsupported_file");
});

Deno.test("readFileTool describes images with their size", async () => {
  await using t = await makeTestWorkspace();
  const png = new Uint8Array(33);
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(png.buffer).setUint32(16, 640);
  new DataView(png.buffer).setUint32(20, 480);
  await t.write("shot.png", png);
  const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 3, 0, 2, 0, 0, 0]);
  await t.write("anim.gif", gif);
  await t.write(
    "photo.jpg",
    new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 50, 0, 100, 3]),
  );
  const cases: [string, string][] = [
    [
      "shot.png",
      '"shot.png" is a PNG image (640×480, 33 bytes): image viewing is not supported by this tool',
    ],
    ["anim.gif", '"anim.gif" is a GIF image (3×2, 12 bytes): image viewing is not supported by this tool'],
    [
      "photo.jpg",
      '"photo.jpg" is a JPEG image (100×50, 18 bytes): image viewing is not supported by this tool',
    ],
  ];
  for (const [path, message] of cases) {
    const error = await rejectsWithCode(readFileTool.execute({ path }, t.ctx), "tool.unsupported_file");
    assert.equal(error.message, message);
  }
});

Deno.test("readFileTool decodes UTF-16 and UTF-8 BOM files", async () => {
  await using t = await makeTestWorkspace();
  const text = "héllo\nwörld\n";
  const le = new Uint8Array(2 + text.length * 2);
  le.set([0xff, 0xfe]);
  const be = new Uint8Array(2 + text.length * 2);
  be.set([0xfe, 0xff]);
  const bare = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    new DataView(le.buffer).setUint16(2 + i * 2, text.charCodeAt(i), true);
    new DataView(be.buffer).setUint16(2 + i * 2, text.charCodeAt(i), false);
    new DataView(bare.buffer).setUint16(i * 2, text.charCodeAt(i), true);
  }
  await t.write("le.txt", le);
  await t.write("be.txt", be);
  await t.write("bare.txt", bare);
  await t.write("bom.txt", new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]));
  for (const path of ["le.txt", "be.txt", "bare.txt", "bom.txt"]) {
    const result = await readFileTool.execute({ path }, t.ctx);
    assert.equal(result.output, numbered(1, ["héllo", "wörld"]), path);
  }
});

Deno.test("readFileTool pages through a 10 MB file", async () => {
  await using t = await makeTestWorkspace();
  const line = "0123456789".repeat(10);
  const count = 100_000;
  const body = Array.from({ length: count }, (_, i) => `${i + 1}:${line}`).join("\n") + "\n";
  assert.ok(body.length > 10_000_000);
  await t.write("big.txt", body);
  const page = await readFileTool.execute({ path: "big.txt", offset: 99_990, limit: 5 }, t.ctx);
  const expected = [99_991, 99_992, 99_993, 99_994, 99_995].map((n) => `${n}:${line}`);
  assert.equal(
    page.output,
    `${numbered(99_991, expected)}\n\n[showing lines 99991-99995 of ${count}; use offset=99995 to read more]`,
  );
  const first = await readFileTool.execute({ path: "big.txt" }, t.ctx);
  assert.equal(first.truncated, true);
  assert.ok(first.output.length <= 32_000 + 200);
  assert.match(
    first.output,
    new RegExp(`\\[showing lines 1-(\\d+) of ${count}; use offset=\\1 to read more\\]$`),
  );
});

Deno.test("readFileTool stops when the signal is aborted", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.txt", "a\n");
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(readFileTool.execute({ path: "a.txt" }, { ...t.ctx, signal: controller.signal }));
});

Deno.test({
  name: "readFileTool refuses a FIFO at once, through the file agent and through the bash helper",
  ignore: Deno.build.os === "windows",
  async fn() {
    for (const noAgent of [false, true]) {
      await using t = await makeTestWorkspace({ noAgent });
      const fifo = join(t.root, "pipe");
      await mkfifo(fifo);
      const started = performance.now();
      const read = readFileTool.execute({ path: "pipe" }, t.ctx);
      await promptly(rejectsWithCode(read, "tool.unsupported_file"), 5, [fifo]);
      assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
    }
  },
});

Deno.test({
  name: "readPlain (code_index, and every read off Linux) refuses a FIFO without opening it blocking",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using t = await makeTestWorkspace();
    const fifo = join(t.root, "pipe");
    await mkfifo(fifo);
    const error = await promptly(rejectsWithCode(readPlain(fifo), "tool.unsupported_file"), 5, [fifo]);
    assert.match(error.message, /not a regular file/);
  },
});
