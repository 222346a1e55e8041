import assert from "node:assert/strict";
import { join } from "node:path";
import { checkpointDirFor, CheckpointStore } from "../../src/session/checkpoints.ts";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { type ControllerSession, withController } from "../support/controller_session.ts";

type Session = ControllerSession;

function call(name: string, args: object): ScriptedReply {
  return { toolCalls: [{ name, arguments: JSON.stringify(args) }] };
}

/** Turn 1 edits a.txt, turn 2 creates c.txt and moves b.txt to d.txt, turn 3 edits a.txt again. */
const THREE_TURNS: ScriptedReply[] = [
  call("edit_file", { path: "a.txt", old_string: "alpha", new_string: "one" }),
  { content: "ok 1" },
  call("write_file", { path: "c.txt", content: "new\n" }),
  call("move_file", { source_path: "b.txt", destination_path: "d.txt" }),
  { content: "ok 2" },
  call("edit_file", { path: "a.txt", old_string: "one", new_string: "two" }),
  { content: "ok 3" },
];
const PROMPTS = ["edit a", "create c and move b", "edit a again"];

function withThreeTurns(extra: ScriptedReply[], body: (session: Session) => Promise<void>) {
  return withController({
    script: [...THREE_TURNS, ...extra],
    files: { "a.txt": "alpha\n", "b.txt": "keep\n" },
    flags: { permissionMode: "yolo" },
    listen: false,
  }, async (session) => {
    for (const prompt of PROMPTS) assert.equal((await session.controller.runTurn(prompt)).subtype, "success");
    await body(session);
  });
}

async function read(ws: string, rel: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(join(ws, rel));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

async function tree(ws: string): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const name of ["a.txt", "b.txt", "c.txt", "d.txt"]) out[name] = await read(ws, name);
  return out;
}

const AFTER_ALL = { "a.txt": "two\n", "b.txt": null, "c.txt": "new\n", "d.txt": "keep\n" };

Deno.test("checkpoints record each file's first-touch content per turn, and absence", async () => {
  await withThreeTurns([], async ({ controller, ws }) => {
    const store = new CheckpointStore(checkpointDirFor(controller.sessionFile));
    const checkpoints = await store.list();
    const contents = await Promise.all(checkpoints.map(async (checkpoint) => ({
      label: checkpoint.label,
      files: await Promise.all(checkpoint.files.map(async (file) => ({
        path: file.path.slice(ws.length + 1),
        before: file.before === null ? null : new TextDecoder().decode((await store.blob(file.before))!),
      }))),
    })));
    assert.deepEqual(contents, [
      { label: "edit a", files: [{ path: "a.txt", before: "alpha\n" }] },
      {
        label: "create c and move b",
        files: [
          { path: "c.txt", before: null },
          { path: "b.txt", before: "keep\n" },
          { path: "d.txt", before: null },
        ],
      },
      { label: "edit a again", files: [{ path: "a.txt", before: "one\n" }] },
    ]);
    const state = await controller.rewindState();
    assert.deepEqual(state.turns.map((turn) => [turn.turn, turn.prompt, turn.files]), [
      [1, "edit a", ["a.txt"]],
      [2, "create c and move b", ["c.txt", "b.txt", "d.txt"]],
      [3, "edit a again", ["a.txt"]],
    ]);
    assert.equal(state.canUndo, false);
  });
});

Deno.test("rewinding the code restores edits, removes created files and brings back moved ones", async () => {
  await withThreeTurns([], async ({ controller, ws }) => {
    const history = controller.history().length;
    const outcome = await controller.rewind({ turn: 2, scope: "code" });
    assert.equal(outcome.status, "done");
    assert.deepEqual(await tree(ws), { "a.txt": "one\n", "b.txt": "keep\n", "c.txt": null, "d.txt": null });
    assert.equal(controller.history().length, history);
    assert.equal(outcome.status === "done" && outcome.prompt, null);
    await controller.rewind({ turn: 1, scope: "code" });
    assert.deepEqual(await tree(ws), { "a.txt": "alpha\n", "b.txt": "keep\n", "c.txt": null, "d.txt": null });
  });
});

Deno.test("a restore is undone by the snapshot it took first", async () => {
  await withThreeTurns([], async ({ controller, ws }) => {
    await controller.rewind({ turn: 1, scope: "both" });
    assert.equal((await controller.rewindState()).canUndo, true);
    assert.equal((await controller.rewindState()).turns.length, 0);
    const undone = await controller.rewind({ undo: true });
    assert.equal(undone.status, "done");
    assert.deepEqual(await tree(ws), AFTER_ALL);
    assert.deepEqual((await controller.rewindState()).turns.map((turn) => turn.prompt), PROMPTS);
  });
});

Deno.test("a restore over a file changed outside Reasonix names it and asks first", async () => {
  await withThreeTurns([], async ({ controller, ws }) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "hand edit\n");
    const refused = await controller.rewind({ turn: 1, scope: "code" });
    assert.deepEqual(refused, { status: "changed_outside", files: ["a.txt"] });
    assert.equal(await read(ws, "a.txt"), "hand edit\n");
    assert.equal((await controller.rewind({ turn: 1, scope: "code", force: true })).status, "done");
    assert.equal(await read(ws, "a.txt"), "alpha\n");
    await controller.rewind({ undo: true });
    assert.equal(await read(ws, "a.txt"), "hand edit\n");
  });
});

Deno.test("rewinding the conversation makes the next request carry the history before that turn", async () => {
  await withThreeTurns([{ content: "ok again" }], async ({ sim, controller, ws }) => {
    const turnTwoFirst = sim.requests[2]!.body;
    const outcome = await controller.rewind({ turn: 2, scope: "conversation" });
    assert.equal(outcome.status === "done" && outcome.prompt, "create c and move b");
    assert.deepEqual(await tree(ws), AFTER_ALL);
    await controller.runTurn("create c and move b");
    const sent = JSON.parse(sim.requests.at(-1)!.body);
    const before = JSON.parse(turnTwoFirst);
    const told = sent.messages.pop().content as string;
    before.messages.pop();
    assert.deepEqual(sent, before);
    assert.match(
      told,
      /^create c and move b\n\n<turn-context>\nFiles changed by turns that were rewound away/,
    );
    assert.match(told, /c\.txt, b\.txt, d\.txt, a\.txt\./);
    const state = await controller.rewindState();
    assert.deepEqual(state.turns.map((turn) => turn.prompt), ["edit a", "create c and move b"]);
  });
});

Deno.test("rewinding both restores the files and the conversation", async () => {
  await withThreeTurns([{ content: "fresh" }], async ({ sim, controller, ws }) => {
    const turnOneFirst = sim.requests[0]!.body;
    await controller.rewind({ turn: 1, scope: "both" });
    assert.deepEqual(await tree(ws), { "a.txt": "alpha\n", "b.txt": "keep\n", "c.txt": null, "d.txt": null });
    await controller.runTurn("edit a");
    assert.equal(sim.requests.at(-1)!.body, turnOneFirst);
  });
});

Deno.test("checkpoints and rewinds survive a restart of the process", async () => {
  await withThreeTurns([{ content: "after restart" }], async ({ sim, ws, reboot }) => {
    const turnThreeFirst = sim.requests[5]!.body;
    const controller = await reboot();
    const state = await controller.rewindState();
    assert.deepEqual(state.turns.map((turn) => turn.files), [["a.txt"], ["c.txt", "b.txt", "d.txt"], [
      "a.txt",
    ]]);
    await controller.rewind({ turn: 3, scope: "both" });
    assert.equal(await read(ws, "a.txt"), "one\n");
    await controller.runTurn("edit a again");
    assert.equal(sim.requests.at(-1)!.body, turnThreeFirst);
  });
});

Deno.test("/rewind lists the turns, asks before overwriting outside edits, and hands back the prompt", async () => {
  const { defaultCommands } = await import("../../src/control/commands/builtin.ts");
  await withThreeTurns([], async ({ controller, ws }) => {
    const printed: string[] = [];
    const inputs: string[] = [];
    const ctx = {
      host: controller,
      print: (text: string) => printed.push(text),
      quit: () => {},
      setInput: (text: string) => inputs.push(text),
    };
    const run = async (line: string) => {
      const resolved = defaultCommands().resolve(line);
      assert.equal(resolved.kind, "command");
      if (resolved.kind === "command") await resolved.command.run(ctx, resolved.args);
      return printed.at(-1)!;
    };
    const listing = await run("/rewind");
    assert.match(
      listing,
      /^ {2}1 {2}\S+ {2}edit a {2}\(a\.txt\)\n {2}2 .*create c and move b {2}\(c\.txt, b\.txt, d\.txt\)/,
    );
    assert.match(listing, /bash side effects are not/);
    await Deno.writeTextFile(join(ws, "c.txt"), "hand\n");
    assert.match(
      await run("/rewind 2 both"),
      /changed outside Reasonix since the checkpoint: c\.txt\n.*\/rewind 2 both --yes/,
    );
    await run("/rewind 2 both --yes");
    assert.deepEqual(inputs, ["create c and move b"]);
    assert.deepEqual(await tree(ws), { "a.txt": "one\n", "b.txt": "keep\n", "c.txt": null, "d.txt": null });
    assert.match(await run("/rewind"), /\/rewind undo {2}undoes the last restore/);
    assert.match(await run("/rewind undo"), /^Undid the last restore: restored/);
    assert.equal(await read(ws, "c.txt"), "hand\n");
  });
});

Deno.test("a damaged checkpoint JSON loses only its own turn's files; the other turns still restore", async () => {
  await withThreeTurns([], async ({ controller, ws }) => {
    const dir = checkpointDirFor(controller.sessionFile);
    await Deno.writeTextFile(join(dir, "000002.json"), '{"v":1,"id":"000002","files":[');
    const state = await controller.rewindState();
    assert.deepEqual(state.turns.map((turn) => [turn.turn, turn.prompt, turn.files]), [
      [1, "edit a", ["a.txt"]],
      [2, "create c and move b", []],
      [3, "edit a again", ["a.txt"]],
    ]);
    assert.equal((await controller.rewind({ turn: 3, scope: "code" })).status, "done");
    assert.equal(await read(ws, "a.txt"), "one\n");
    assert.equal((await controller.rewind({ turn: 1, scope: "code" })).status, "done");
    assert.deepEqual(
      await tree(ws),
      { ...AFTER_ALL, "a.txt": "alpha\n" },
      "turn 2's files are lost, only them",
    );
  });
});

Deno.test("a damaged blob fails only the restores that need it, and nothing is written by them", async () => {
  await withThreeTurns([], async ({ controller, ws }) => {
    const store = new CheckpointStore(checkpointDirFor(controller.sessionFile));
    const alpha = (await store.list())[0]!.files[0]!.before!;
    await Deno.writeTextFile(join(store.dir, "blobs", alpha), "garbage");
    await assert.rejects(controller.rewind({ turn: 1, scope: "code" }), { code: "rewind.damaged" });
    assert.deepEqual(await tree(ws), AFTER_ALL);
    assert.equal((await controller.rewind({ turn: 2, scope: "code" })).status, "done");
    assert.deepEqual(await tree(ws), { "a.txt": "one\n", "b.txt": "keep\n", "c.txt": null, "d.txt": null });
  });
});
