import assert from "node:assert/strict";
import { join } from "node:path";
import {
  escapePath,
  MENTION_DIR_ENTRIES,
  MENTION_FILE_BYTES,
  mentionAttachments,
  mentionTokens,
  withMentions,
} from "../../src/control/mentions.ts";
import type { Workspace } from "../../src/tool/tool.ts";
import { makeWorkspace, removeAll } from "../support/cli.ts";
import { withController } from "../support/controller_session.ts";
import { assertPrependOnly, assertStablePrefix } from "../support/prefix_guard.ts";

async function workspace(files: Record<string, string>, forbid: string[] = []): Promise<Workspace> {
  const root = await Deno.realPath(await makeWorkspace(files));
  return { root, extraWritable: [], forbidRead: forbid.map((path) => join(root, path)) };
}

Deno.test("mentionTokens() finds @path after whitespace or at the start, once each", () => {
  assert.deepEqual(mentionTokens("@a.ts and @b/c.md, mail me@x.org, again @a.ts"), ["a.ts", "b/c.md,"]);
  assert.deepEqual(mentionTokens("看看\n@文档.md 吧"), ["文档.md"]);
  assert.deepEqual(mentionTokens("no mentions @ here"), []);
  assert.deepEqual(mentionTokens(`open @${escapePath("my notes/to do.md")} now`), ["my notes/to do.md"]);
});

Deno.test("mentionAttachments() finds a path with spaces written with backslash escapes", async () => {
  const ws = await workspace({ "my notes/to do.md": "milk\n" });
  try {
    const blocks = (await mentionAttachments(`see @my\\ notes/to\\ do.md`, ws)).blocks;
    assert.deepEqual(blocks, [`<mentioned-file path="my notes/to do.md">\nmilk\n</mentioned-file>`]);
  } finally {
    await removeAll(ws.root);
  }
});

Deno.test("mentionAttachments() attaches an existing file's content and ignores unknown paths", async () => {
  const ws = await workspace({ "src/app.ts": "export const answer = 42;\n" });
  try {
    const mentioned = await mentionAttachments("explain @src/app.ts, not @missing.ts or @../etc", ws);
    assert.deepEqual(mentioned.files, [join(ws.root, "src/app.ts")]);
    const blocks = mentioned.blocks;
    assert.deepEqual(blocks, [
      `<mentioned-file path="src/app.ts">\nexport const answer = 42;\n</mentioned-file>`,
    ]);
    assert.equal(
      withMentions("explain", blocks),
      `explain\n\n<mentioned-file path="src/app.ts">\nexport const answer = 42;\n</mentioned-file>`,
    );
    assert.equal(withMentions("plain", []), "plain");
  } finally {
    await removeAll(ws.root);
  }
});

Deno.test("mentionAttachments() never attaches forbid_read files or paths outside the workspace", async () => {
  const ws = await workspace({ "secret/key.txt": "hunter2\n", "ok.txt": "fine\n" }, ["secret"]);
  const outside = await Deno.makeTempFile({ suffix: ".txt" });
  await Deno.writeTextFile(outside, "outside text\n");
  try {
    const blocks = (await mentionAttachments(`@secret/key.txt @secret @${outside} @ok.txt`, ws)).blocks;
    assert.equal(blocks.length, 1);
    assert.match(blocks[0]!, /path="ok\.txt"/);
    assert.doesNotMatch(blocks.join(""), /hunter2|outside text/);
  } finally {
    await removeAll(ws.root, outside);
  }
});

Deno.test("mentionAttachments() lists a directory and hides forbidden entries", async () => {
  const ws = await workspace({ "src/a.ts": "", "src/lib/b.ts": "", "src/private/c.ts": "" }, ["src/private"]);
  try {
    const [block] = (await mentionAttachments("look at @src/", ws)).blocks;
    assert.equal(block, `<mentioned-dir path="src">\na.ts\nlib/\n</mentioned-dir>`);
    const many: Record<string, string> = {};
    for (let i = 0; i < MENTION_DIR_ENTRIES + 5; i++) many[`d/f${String(i).padStart(3, "0")}`] = "";
    const big = await workspace(many);
    const [listing] = (await mentionAttachments("@d", big)).blocks;
    assert.match(listing!, /\[… 5 more entries\]/);
    await removeAll(big.root);
  } finally {
    await removeAll(ws.root);
  }
});

Deno.test("mentionAttachments() caps a file at 64 KB on a character boundary and the total at 200 KB", async () => {
  const wide = "字".repeat(MENTION_FILE_BYTES); // 3 bytes each: far over the cap
  const files: Record<string, string> = { "wide.txt": wide };
  for (const name of ["b1", "b2", "b3", "b4"]) files[`${name}.txt`] = "x".repeat(MENTION_FILE_BYTES);
  const ws = await workspace(files);
  try {
    const [first] = (await mentionAttachments("@wide.txt", ws)).blocks;
    const body = first!.split("\n")[1]!;
    assert.ok(!body.includes("\uFFFD"), "no character is cut in half");
    assert.equal(new TextEncoder().encode(body).length, MENTION_FILE_BYTES - (MENTION_FILE_BYTES % 3));
    assert.match(first!, /\[truncated: the first 65535 of 196608 bytes are shown\]/);
    const blocks = (await mentionAttachments("@b1.txt @b2.txt @b3.txt @b4.txt @wide.txt", ws)).blocks;
    assert.equal(blocks.length, 5);
    assert.match(blocks[3]!, /\[truncated: the first 8192 of 65536 bytes are shown\]/);
    assert.match(blocks[4]!, /\[not attached: the 200 KB mention budget is used up\]/);
  } finally {
    await removeAll(ws.root);
  }
});

Deno.test("mentionAttachments() does not inline a binary file", async () => {
  const ws = await workspace({});
  await Deno.writeFile(join(ws.root, "blob.bin"), new Uint8Array([0, 1, 2, 0, 255, 0]));
  try {
    assert.deepEqual((await mentionAttachments("@blob.bin", ws)).blocks, [
      `<mentioned-file path="blob.bin">\n[not attached: a binary file, 6 bytes]\n</mentioned-file>`,
    ]);
  } finally {
    await removeAll(ws.root);
  }
});

Deno.test("Controller attaches a mentioned file to the tail of that user message; the prefix stays byte-stable", async () => {
  await withController({
    script: [{ content: "first" }, { content: "second" }, { content: "third" }],
    files: { "notes/plan.md": "# Plan\nship it\n" },
    listen: false,
  }, async ({ sim, controller, ws }) => {
    await controller.runTurn("hello");
    await controller.runTurn("read @notes/plan.md please");
    await Deno.utime(join(ws, "notes/plan.md"), new Date(), new Date(Date.now() + 5000));
    await controller.runTurn("thanks");
    const last = sim.requests[1]!.json.messages.at(-1);
    assert.equal(
      last.content,
      `read @notes/plan.md please\n\n<mentioned-file path="notes/plan.md">\n# Plan\nship it\n</mentioned-file>`,
    );
    assert.equal(
      sim.requests[2]!.json.messages.at(-1).content,
      "thanks\n\n<turn-context>\nChanged on disk since you last read or wrote them: notes/plan.md.\n</turn-context>",
      "a mentioned file is watched like one the model read",
    );
    const bodies = sim.requests.map((request) => request.body);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
  });
});
