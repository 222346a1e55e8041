/**
 * Files Reasonix reads or writes for the user inside a cloned workspace (`@path` mentions, the
 * `/remember` notes file) never reach through a symlink into the Reasonix home's .env.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Memory } from "../../src/control/memory.ts";
import { mentionAttachments } from "../../src/control/mentions.ts";

async function setup() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-project-files-" }));
  const home = join(root, "home");
  const ws = join(root, "ws");
  await Deno.mkdir(home);
  await Deno.mkdir(ws);
  const envFile = join(home, ".env");
  await Deno.writeTextFile(envFile, "DEEPSEEK_API_KEY=sk-secret\n");
  await Deno.symlink(envFile, join(ws, "AGENTS.md"));
  return { root, home, ws, envFile, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

Deno.test("mentionAttachments() attaches nothing for a mention that is a symlink to <home>/.env", async () => {
  await using fx = await setup();
  await Deno.writeTextFile(join(fx.ws, "a.txt"), "alpha");
  for (const forbidRead of [[], [fx.envFile]]) {
    const ws = { root: fx.ws, extraWritable: [], forbidRead };
    const mentioned = await mentionAttachments(`see @AGENTS.md @${fx.envFile} and @a.txt`, ws);
    assert.deepEqual(mentioned.files, [join(fx.ws, "a.txt")]);
    assert.doesNotMatch(mentioned.blocks.join("\n"), /sk-secret/);
  }
});

Deno.test("Memory refuses to read or write notes through an AGENTS.md symlinked out of the workspace", async () => {
  await using fx = await setup();
  const memory = new Memory({ home: fx.home, workspace: fx.ws });
  assert.deepEqual((await memory.report()).notes, []);
  await assert.rejects(memory.remember("leak it"), /points to ".*\.env", outside the workspace/);
  await assert.rejects(memory.forget("1"), /outside the workspace/);
  assert.equal(await Deno.readTextFile(fx.envFile), "DEEPSEEK_API_KEY=sk-secret\n");
});
