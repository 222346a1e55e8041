import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultCommands } from "../../src/control/commands/builtin.ts";
import type { CommandContext } from "../../src/control/commands/registry.ts";
import type { Controller } from "../../src/control/controller.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";
import { secondProvider } from "./_second_provider.ts";

interface Commanded {
  sim: DeepSeekSim;
  host: Controller;
  ws: string;
  printed: string[];
  copied: string[];
  clears: number[];
  run(input: string): Promise<string>;
}

async function withCommands(
  script: ScriptedReply[],
  body: (ctx: Commanded) => Promise<void>,
  moreToml = "",
) {
  await withController({
    script,
    extraToml: (url) => `${secondProvider(url)}\n${moreToml}`,
    files: { "a.txt": "alpha\n" },
    switchable: true,
    listen: false,
  }, async ({ sim, controller: host, ws }) => {
    const printed: string[] = [];
    const copied: string[] = [];
    const clears: number[] = [];
    const commands = defaultCommands();
    const ctx: CommandContext = {
      host,
      print: (text) => printed.push(text),
      quit: () => {},
      clearScreen: () => clears.push(1),
      copyToClipboard: (text) => {
        copied.push(text);
        return Promise.resolve(["test-recorder"]);
      },
    };
    const run = async (input: string) => {
      const before = printed.length;
      assert.equal(await commands.dispatch(ctx, input), true, `${input} is a command`);
      return printed.slice(before).join("\n");
    };
    await body({ sim, host, ws, printed, copied, clears, run });
  });
}

Deno.test("/resume lists sessions numbered with title or first message, and switches by number, id or text", async () => {
  await withCommands([{ content: "a" }, { content: "b" }], async ({ host, run }) => {
    await host.runTurn("fix the lexer");
    const lexer = host.sessionId;
    await run("/rename Lexer work");
    assert.match(await run("/new"), new RegExp(`previous session ${lexer} is saved`));
    await host.runTurn("write docs");
    const docs = host.sessionId;
    const listing = await run("/resume");
    assert.match(listing, new RegExp(`\\* 1\\. ${docs}  write docs  \\(just now, 1 turn\\)`));
    assert.match(listing, new RegExp(`  2\\. ${lexer}  Lexer work  \\(just now, 1 turn\\)`));
    assert.match(await run("/resume 2"), /Resumed "Lexer work" \(1 turn\)/);
    assert.equal(host.sessionId, lexer);
    assert.match(await run("/resume docs"), /Resumed "write docs"/);
    assert.equal(host.sessionId, docs);
    assert.match(await run(`/resume ${lexer.slice(0, 20)}`), /Resumed "Lexer work"/);
    assert.match(await run(`/resume ${lexer}`), /Already in session/);
    assert.match(
      await run("/resume nothing-like-this"),
      /No session of this workspace matches "nothing-like-this"/,
    );
  });
});

Deno.test("/resume with text that fits several sessions lists them instead of guessing", async () => {
  await withCommands([{ content: "a" }, { content: "b" }], async ({ host, run }) => {
    await host.runTurn("parser part one");
    await run("/new");
    await host.runTurn("parser part two");
    assert.match(await run("/resume parser"), /"parser" matches 2 sessions/);
  });
});

Deno.test("/clear starts a new session and asks the face to wipe the screen", async () => {
  await withCommands([{ content: "a" }], async ({ host, run, clears }) => {
    await host.runTurn("something");
    const before = host.sessionId;
    assert.match(await run("/clear"), /Context cleared/);
    assert.notEqual(host.sessionId, before);
    assert.equal(host.history().length, 2, "only the system prompt and the session context remain");
    assert.deepEqual(clears, [1]);
  });
});

Deno.test("/model lists models with the current one marked and switches by name", async () => {
  await withCommands([], async ({ host, run }) => {
    const listing = await run("/model");
    assert.match(listing, /^\* deepseek-flash\/deepseek-flash$/m);
    assert.match(listing, /^ {2}sim-pro\/sim-pro-model$/m);
    assert.match(await run("/model deepseek-flash"), /Already using deepseek-flash\/deepseek-flash/);
    assert.match(await run("/model sim-pro"), /Model: sim-pro-model\. Same session.*cache starts cold/);
    assert.equal(host.model, "sim-pro-model");
    assert.equal(
      await run("/model no-such-model"),
      'Cannot switch to model "no-such-model": no configured provider lists it\nKnown models: ' +
        "deepseek-flash/deepseek-flash, deepseek-pro/deepseek-v4-pro, sim-pro/sim-pro-model\n" +
        "Use one of the names above, a provider name, or add the model to a [[providers]] entry's models in config.toml",
    );
    assert.equal(host.model, "sim-pro-model", "a failed switch leaves the session as it was");
  });
});

Deno.test("/model says which provider's key is missing and how to set it; the session stays", async () => {
  const keyless = [
    `[[providers]]`,
    `name = "keyless"`,
    `kind = "openai"`,
    `base_url = "https://keyless.invalid/v1"`,
    `model = "keyless-model"`,
    `api_key_env = "REASONIX_TEST_NO_SUCH_KEY"`,
  ].join("\n");
  await withCommands([], async ({ host, run }) => {
    const out = await run("/model keyless");
    const [first, hint] = out.split("\n");
    assert.equal(
      first,
      'Cannot switch to model "keyless": Cannot authenticate provider "keyless": "REASONIX_TEST_NO_SUCH_KEY" is not set',
    );
    assert.match(
      hint!,
      /^Set REASONIX_TEST_NO_SUCH_KEY in the environment or add REASONIX_TEST_NO_SUCH_KEY=\.\.\. to /,
    );
    assert.equal(host.model, "deepseek-flash", "a failed switch leaves the session as it was");
  }, keyless);
});

Deno.test("/effort shows, sets (aliases normalised) and rejects unknown levels", async () => {
  await withCommands([], async ({ host, run }) => {
    assert.equal(await run("/effort"), "Reasoning effort: auto");
    assert.match(await run("/effort ultra"), /Reasoning effort: max, from the next request/);
    assert.equal(host.effort, "max");
    assert.match(
      await run("/effort loud"),
      /Unknown effort "loud"\. Use one of: auto, disabled, low, high, max/,
    );
    assert.equal(host.effort, "max");
  });
});

Deno.test("/export writes Markdown to the workspace, refuses to overwrite without --force", async () => {
  await withCommands([{ content: "The answer is **42**." }], async ({ host, ws, run }) => {
    await host.runTurn("what is the answer");
    await run("/rename Answers");
    const file = join(ws, `reasonix-${host.sessionId}.md`);
    assert.equal(await run("/export"), `Exported the conversation to ${file}`);
    const text = await Deno.readTextFile(file);
    assert.match(text, /^# Answers\n/);
    assert.match(text, /## You\n\nwhat is the answer\n\n## Assistant\n\nThe answer is \*\*42\*\*\./);
    assert.ok(!text.includes("<session-context"), "the context message is left out");
    assert.match(text, /The system prompt and the session-context message are not included/);
    assert.match(await run("/export"), /already exists; add --force/);
    await Deno.writeTextFile(file, "old");
    await run("/export --force");
    assert.match(await Deno.readTextFile(file), /## Assistant/);
    assert.equal(await run("/export out.md"), `Exported the conversation to ${join(ws, "out.md")}`);
    assert.match(await run("/export no-dir/out.md"), /^Cannot export the conversation: No such file/);
  });
});

Deno.test("/copy hands the last answer to the face's clipboard hook", async () => {
  await withCommands(
    [{ content: "First." }, { content: "Second answer." }],
    async ({ host, run, copied }) => {
      assert.equal(await run("/copy"), "There is no answer to copy yet");
      await host.runTurn("one");
      await host.runTurn("two");
      assert.equal(await run("/copy"), "Copied the last answer (14 characters) via test-recorder");
      assert.deepEqual(copied, ["Second answer."]);
    },
  );
});

Deno.test("session commands on a bare Controller say the face cannot switch; /rename still works", async () => {
  await withController({ script: [], listen: false }, async ({ controller }) => {
    const printed: string[] = [];
    const ctx: CommandContext = { host: controller, print: (text) => printed.push(text), quit: () => {} };
    const commands = defaultCommands();
    for (const input of ["/new", "/resume", "/model"]) await commands.dispatch(ctx, input);
    await commands.dispatch(ctx, "/copy");
    await commands.dispatch(ctx, "/rename   Named   here ");
    assert.deepEqual(
      printed.slice(0, 3),
      Array(3).fill("This face cannot switch sessions; use the interactive TUI"),
    );
    assert.equal(printed[3], "There is no answer to copy yet");
    assert.equal(printed[4], 'Session named "Named here"');
  });
});
