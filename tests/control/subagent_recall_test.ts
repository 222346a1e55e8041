/**
 * ChildRecall on session files written by hand: an old child (its link without the request it ran with)
 * still gives its answer but cannot be continued; a child whose header names another workspace, a child of
 * another conversation and refs that are paths read nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ChildRecall } from "../../src/control/subagent_recall.ts";
import { workspaceDir } from "../../src/session/resume.ts";

const AT = "2026-01-01T00:00:00.000Z";
const OLD_CHILD = "20260101-000000-0000000a";
const GRANDCHILD = "20260101-000000-0000000b";
const UNFINISHED = "20260101-000000-0000000c";
const STRANGER = "20260101-000000-0000000d";
const MOVED = "20260101-000000-0000000e";
const WRITER = "20260101-000000-0000000f";
const OTHER_ROOT = "20260101-000000-00000002";
const ROOT = "20260101-000000-00000001";

interface Fake {
  id: string;
  parent: string;
  workspace?: string;
  request?: unknown;
  answer?: string;
}

async function writeChild(sessionsDir: string, workspace: string, fake: Fake): Promise<void> {
  const dir = workspaceDir(sessionsDir, workspace);
  await Deno.mkdir(dir, { recursive: true });
  const link = {
    parent: fake.parent,
    depth: 1,
    description: "d",
    ...(fake.request ? { request: fake.request } : {}),
  };
  const records = [
    {
      type: "session",
      v: 1,
      id: fake.id,
      workspace: fake.workspace ?? workspace,
      createdAt: AT,
      model: "m",
      provider: "p",
    },
    { type: "event", name: "subagent", data: link, at: AT },
    { type: "message", message: { role: "system", content: "the child prompt" } },
    { type: "entry", entry: { kind: "turn", turn: 1, text: "task" }, at: AT },
    { type: "message", message: { role: "user", content: "task" } },
    ...(fake.answer === undefined
      ? []
      : [{ type: "entry", entry: { kind: "turn_end", subtype: "success", result: fake.answer }, at: AT }]),
  ];
  await Deno.writeTextFile(
    join(dir, `${fake.id}.jsonl`),
    records.map((r) => JSON.stringify(r) + "\n").join(""),
  );
}

Deno.test("ChildRecall reads an old child's answer but refuses to continue it; foreign refs read nothing", async () => {
  const sessionsDir = await Deno.makeTempDir();
  const workspace = await Deno.makeTempDir();
  try {
    const recall = new ChildRecall({ sessionsDir, workspace, conversation: ROOT });
    await writeChild(sessionsDir, workspace, { id: OLD_CHILD, parent: ROOT, answer: "old answer" });
    await writeChild(sessionsDir, workspace, {
      id: GRANDCHILD,
      parent: OLD_CHILD,
      answer: "deep answer",
    });
    await writeChild(sessionsDir, workspace, { id: UNFINISHED, parent: ROOT });
    await writeChild(sessionsDir, workspace, { id: STRANGER, parent: OTHER_ROOT, answer: "not yours" });
    await writeChild(sessionsDir, workspace, {
      id: MOVED,
      parent: ROOT,
      workspace: "/elsewhere",
      answer: "another workspace",
      request: { readOnly: true },
    });
    await writeChild(sessionsDir, workspace, {
      id: WRITER,
      parent: ROOT,
      answer: "written",
      request: {
        readOnly: false,
        writePaths: ["a.txt"],
        profile: { name: "docs", allowedTools: ["read_file"] },
      },
    });

    assert.equal(await recall.answer(`subagent:${OLD_CHILD}`), "old answer");
    assert.equal(
      await recall.answer(`subagent:${GRANDCHILD}`),
      "deep answer",
      "a child of a child of this session",
    );
    await assert.rejects(recall.finished(`subagent:${OLD_CHILD}`, ROOT), /does not record how it ran/);
    const writer = await recall.finished(`subagent:${WRITER}`, ROOT);
    assert.deepEqual(writer?.request, {
      readOnly: false,
      writePaths: ["a.txt"],
      prompt: "",
      profile: { name: "docs", allowedTools: ["read_file"], body: "the child prompt" },
    });
    assert.equal(await recall.finished(`subagent:${WRITER}`, OLD_CHILD), undefined, "another level");
    for (
      const ref of [
        `subagent:${UNFINISHED}`,
        `subagent:${STRANGER}`,
        `subagent:${MOVED}`,
        "subagent:../x",
        "subagent:CON",
        OLD_CHILD,
      ]
    ) {
      assert.equal(await recall.answer(ref), undefined, ref);
      assert.equal(await recall.finished(ref, ROOT), undefined, ref);
    }
  } finally {
    await Deno.remove(sessionsDir, { recursive: true });
    await Deno.remove(workspace, { recursive: true });
  }
});
