/**
 * Effect test for instruction files on the real request bytes: nested and imported instructions reach
 * the system message in load order, loaded once at session start, so the cached prefix is identical on
 * every request, after the files change on disk, and after a resume.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bootController } from "../../src/control/boot.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { defaultCommands } from "../../src/control/commands/builtin.ts";
import { setLanguage } from "../../src/lib/i18n/mod.ts";
import { INSTRUCTIONS_OPEN } from "../../src/agent/compaction.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";

const FILES = {
  "AGENTS.md": "ROOT RULE\n@docs/rules.md\n@../escape.md\n",
  "docs/rules.md": "IMPORTED RULE",
  "pkg/app/AGENTS.md": "NESTED RULE\r\n@more.md\r\n",
  "pkg/app/more.md": "MORE NESTED",
  "pkg/app/AGENTS.local.md": "LOCAL RULE",
  "pkg/other/AGENTS.md": "SIBLING RULE",
};

/** The body up to the end of the system message: the bytes the provider's prefix cache keys on. */
function systemPrefix(body: string): string {
  const end = body.indexOf(`},{"role":"user"`);
  assert.ok(end > 0, "a system message then a user message");
  return body.slice(0, end);
}

Deno.test("instruction bytes: nested and imported instructions reach the system prompt and stay byte-identical", async () => {
  setLanguage("en");
  const script = [{ content: "1" }, { content: "Goal: greet." }, { content: "2" }, { content: "3" }];
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  await Deno.writeTextFile(join(home, "REASONIX.md"), "GLOBAL RULE");
  const ws = await makeWorkspace(FILES);
  const boot = {
    cwd: join(ws, "pkg/app"),
    dir: ws,
    headless: true,
    env: {},
    paths: resolvePaths({ REASONIX_HOME: home }),
    now: () => new Date("2026-12-01T08:00:00Z"),
  };
  try {
    const first = await bootController(boot);
    try {
      assert.equal((await first.runTurn("one")).subtype, "success");
      assert.equal(await first.compact(), true);
      const update = first.history().find((m) => String(m.content).startsWith(INSTRUCTIONS_OPEN));
      assert.equal(update, undefined, "the compaction re-reads the same files, so nothing changed");
      await Deno.writeTextFile(join(ws, "pkg/app/AGENTS.md"), "CHANGED ON DISK");
      await Deno.writeTextFile(join(ws, "docs/rules.md"), "CHANGED IMPORT");
      assert.equal((await first.runTurn("two")).subtype, "success");
    } finally {
      await first.close();
    }
    const second = await bootController({ ...boot, resume: { kind: "latest" } });
    try {
      assert.equal((await second.runTurn("three")).subtype, "success");
    } finally {
      await second.close();
    }
    assert.equal(sim.requests.length, 4, "turn, summary, turn, resumed turn");
    const prefixes = sim.requests.map((request) => systemPrefix(request.body));
    for (const [i, prefix] of prefixes.entries()) {
      assert.equal(prefix, prefixes[0], `request ${i + 1}: same prefix bytes`);
    }
    const system: string = sim.requests[0]!.json.messages[0].content;
    const order = ["GLOBAL RULE", "ROOT RULE", "IMPORTED RULE", "NESTED RULE", "MORE NESTED", "LOCAL RULE"]
      .map((rule) => system.indexOf(rule));
    assert.ok(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)), `load order: ${order}`);
    assert.match(
      system,
      /<instruction-import path="docs\/rules\.md">\nIMPORTED RULE\n<\/instruction-import>/,
    );
    assert.match(system, /## workspace\/pkg\/app\/AGENTS\.local\.md \(local\)\n\nLOCAL RULE/);
    assert.match(system, /^@\.\.\/escape\.md$/m, "a refused import stays literal text");
    assert.doesNotMatch(system, /SIBLING RULE|CHANGED/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("/memory instructions shows load order, scopes, imports and diagnostics, escaped", async () => {
  setLanguage("en");
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url });
  const evil = "pkg/\x1b[2Jevil";
  const ws = await makeWorkspace({ ...FILES, [`${evil}/CLAUDE.md`]: "@missing.md\nEVIL DIR RULE" });
  const controller = await bootController({
    cwd: join(ws, evil),
    dir: ws,
    headless: false,
    env: {},
    paths: resolvePaths({ REASONIX_HOME: home }),
  });
  try {
    const out: string[] = [];
    const commands = defaultCommands();
    const print = (text: string) => out.push(text);
    assert.ok(await commands.dispatch({ host: controller, print, quit: () => {} }, "/memory instructions"));
    const text = out.join("\n");
    assert.ok(!text.includes("\x1b"), "no raw escape reaches the terminal");
    assert.match(text, /1\. workspace\/AGENTS\.md {2}project, \d+ bytes, loaded/);
    assert.match(text, /@docs\/rules\.md {2}imported/);
    assert.match(text, /@\.\.\/escape\.md {2}refused: parent/);
    assert.match(text, /2\. workspace\/pkg\/␛\[2Jevil\/CLAUDE\.md {2}directory, \d+ bytes, loaded/);
    assert.match(text, /@missing\.md {2}refused: unreadable/);
    assert.match(text, /Diagnostics:\n {2}Cannot import "@\.\.\/escape\.md"/);
    out.length = 0;
    assert.ok(await commands.dispatch({ host: controller, print, quit: () => {} }, "/memory"));
    assert.match(
      out.join("\n"),
      /Instruction files \(read when a session starts\):/,
      "plain /memory still lists",
    );
  } finally {
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
