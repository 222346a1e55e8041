import assert from "node:assert/strict";
import { join } from "node:path";
import type { bootController } from "../../src/control/boot.ts";
import { defaultCommands } from "../../src/control/commands/builtin.ts";
import { noteShorthand } from "../../src/control/commands/memory.ts";
import { NOTES_HEADING } from "../../src/prompt/notes.ts";
import { setLanguage } from "../../src/lib/i18n/mod.ts";
import type { DeepSeekSim } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";

type Session = {
  sim: DeepSeekSim;
  ws: string;
  home: string;
  controller: Awaited<ReturnType<typeof bootController>>;
  run: (input: string) => Promise<string>;
};

async function withSession(files: Record<string, string>, body: (s: Session) => Promise<void>) {
  setLanguage("en");
  await withController({
    script: [{ content: "One." }, { content: "Two." }, { content: "Three." }],
    files,
    headless: false,
    listen: false,
  }, async ({ sim, controller, home, ws }) => {
    const commands = defaultCommands();
    const run = async (input: string) => {
      const out: string[] = [];
      const handled = await commands.dispatch(
        { host: controller, print: (t) => out.push(t), quit: () => {} },
        input,
      );
      assert.ok(handled, `${input} was not a command`);
      return out.join("\n");
    };
    await body({ sim, ws, home, controller, run });
  });
}

Deno.test("noteShorthand(): # + text on one line is a note; headings, shebangs and pastes are not", () => {
  assert.equal(noteShorthand("#use pnpm"), "use pnpm");
  assert.equal(noteShorthand("  # always use tabs "), "always use tabs");
  for (const text of ["#", "#   ", "## Heading", "#!/bin/sh", "# Title\n\nbody", "use #tabs"]) {
    assert.equal(noteShorthand(text), null, text);
  }
});

Deno.test("#note writes AGENTS.md and the next request carries it on the tail, with messages[0] unchanged", async () => {
  await withSession({ "a.txt": "x\n" }, async ({ sim, ws, controller, run }) => {
    await controller.runTurn("first");
    const out = await run("#use tabs");
    assert.match(out, /Remembered in AGENTS\.md: use tabs/);
    assert.equal(await Deno.readTextFile(join(ws, "AGENTS.md")), `${NOTES_HEADING}\n\n- use tabs\n`);
    await controller.runTurn("second");
    const [before, after] = [sim.requests[0]!.json.messages, sim.requests[1]!.json.messages];
    assert.equal(JSON.stringify(after[0]), JSON.stringify(before[0]), "the system prompt is byte-identical");
    assert.doesNotMatch(after[0].content, /use tabs/);
    const last = after.at(-1).content;
    assert.match(
      last,
      /^second\n\n<turn-context>\n.*Standing instruction added \(saved to AGENTS\.md\): use tabs/s,
    );
    assert.ok(
      sim.requests[1]!.body.startsWith(
        sim.requests[0]!.body.slice(0, sim.requests[0]!.body.indexOf("first")),
      ),
    );
    await controller.runTurn("third");
    assert.doesNotMatch(sim.requests[2]!.json.messages.at(-1).content, /Standing instruction/, "told once");
  });
});

Deno.test("/remember uses REASONIX.md when it is the workspace's only instruction file; /memory lists files and notes", async () => {
  await withSession({ "REASONIX.md": "# Rules\n\nBe brief.\n" }, async ({ ws, run }) => {
    await run("/remember run deno fmt before committing");
    await run("/remember prefer small modules");
    assert.equal(
      await Deno.readTextFile(join(ws, "REASONIX.md")),
      `# Rules\n\nBe brief.\n\n${NOTES_HEADING}\n\n- run deno fmt before committing\n- prefer small modules\n`,
    );
    await assert.rejects(Deno.stat(join(ws, "AGENTS.md")), Deno.errors.NotFound);
    const listing = await run("/memory");
    assert.match(listing, new RegExp(`${join(ws, "REASONIX.md")}  project, \\d+ bytes`));
    assert.match(
      listing,
      /Notes in REASONIX\.md:\n {2}1\. run deno fmt before committing\n {2}2\. prefer small modules/,
    );
  });
});

Deno.test("/forget removes a note by number or text, refuses an ambiguous match, and tells the session", async () => {
  await withSession({}, async ({ sim, ws, controller, run }) => {
    assert.match(await run("/memory"), /No instruction files yet/);
    for (const note of ["use tabs", "use pnpm", "write tests first"]) await run(`/remember ${note}`);
    assert.match(await run("/forget use"), /matches 2 notes/);
    assert.match(await run("/forget nothing-like-it"), /No note matches/);
    assert.match(await run("/forget 2"), /Removed from AGENTS\.md: use pnpm/);
    assert.match(await run("/forget TESTS"), /Removed from AGENTS\.md: write tests first/);
    assert.equal(await Deno.readTextFile(join(ws, "AGENTS.md")), `${NOTES_HEADING}\n\n- use tabs\n`);
    await controller.runTurn("go");
    const tail = sim.requests[0]!.json.messages.at(-1).content;
    assert.match(tail, /withdrawn.*use pnpm/);
    assert.match(tail, /withdrawn.*write tests first/);
  });
});

Deno.test("/help lists the memory and workspace commands and explains #note", async () => {
  await withSession({}, async ({ run }) => {
    const help = await run("/help");
    for (
      const usage of ["/memory", "/remember <note>", "/forget <number|text>", "/diff", "/sandbox", "/reload"]
    ) {
      assert.ok(help.includes(usage), `${usage} missing from /help`);
    }
    assert.match(help, /#<note> {2}Same as \/remember <note>/);
  });
});
