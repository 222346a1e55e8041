import assert from "node:assert/strict";
import { join } from "node:path";
import { bootController } from "../../src/control/boot.ts";
import { bootOptions } from "../support/controller_session.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("reasonix session checkpoints and rewind go back to before a turn, asking about outside edits", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { toolCalls: [{ name: "write_file", arguments: `{"path":"a.txt","content":"one\\n"}` }] },
      { content: "ok 1" },
      { toolCalls: [{ name: "write_file", arguments: `{"path":"new.txt","content":"x\\n"}` }] },
      { content: "ok 2" },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  try {
    const controller = await bootController(bootOptions(home, ws, { flags: { permissionMode: "yolo" } }));
    await controller.runTurn("first");
    await controller.runTurn("second");
    await controller.close();

    const listed = await runCli(["session", "checkpoints", "latest", "--json", "--dir", ws], {
      home,
      cwd: ws,
    });
    assert.equal(listed.code, 0, listed.stderr);
    const report = JSON.parse(listed.stdout);
    assert.deepEqual(report.turns.map((t: { prompt: string; files: string[] }) => [t.prompt, t.files]), [
      ["first", ["a.txt"]],
      ["second", ["new.txt"]],
    ]);

    await Deno.writeTextFile(join(ws, "a.txt"), "by hand\n");
    const args = ["session", "rewind", "latest", "--turn", "1", "--code", "--dir", ws];
    const refused = await runCli(args, { home, cwd: ws });
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /Cannot rewind: a\.txt changed outside Reasonix since the checkpoint; pass --yes/,
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "by hand\n");

    const done = await runCli([...args, "--yes"], { home, cwd: ws });
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /Rewound to before turn 1 \(code\): restored a\.txt, new\.txt/);
    assert.match(done.stdout, /bash side effects are not/);
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "alpha\n");
    await assert.rejects(Deno.stat(join(ws, "new.txt")), Deno.errors.NotFound);

    const scope = await runCli(["session", "rewind", "latest", "--turn", "1", "--dir", ws], {
      home,
      cwd: ws,
    });
    assert.equal(scope.code, 2);
    assert.match(scope.stderr, /give exactly one of --code, --conversation, --both/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
