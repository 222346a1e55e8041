/**
 * `reasonix subagent list|create|edit|delete` through the real CLI: profiles are skill files with
 * `runAs: subagent`, written where the scope says and read back by the same loader sessions use.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("reasonix subagent: create, list, edit and delete profiles as skill files", async () => {
  const home = await Deno.makeTempDir({ prefix: "reasonix-home-" });
  const ws = await makeWorkspace({ "prompt.md": "You check migrations.\nSay what is unsafe.\n" });
  const cli = (...args: string[]) => runCli(["subagent", ...args], { home, cwd: ws });
  try {
    const created = await cli(
      "create",
      "migrations",
      "--description",
      "Checks database migrations",
      "--prompt-file",
      "prompt.md",
      "--tools",
      "read_file,grep",
      "--read-only",
      "--effort",
      "high",
    );
    assert.equal(created.code, 0, created.stderr);
    const file = join(ws, ".reasonix/skills/migrations/SKILL.md");
    assert.equal(
      await Deno.readTextFile(file),
      `---\nname: migrations\ndescription: Checks database migrations\nrunAs: subagent\neffort: high\n` +
        `read-only: true\nallowed-tools:\n  - read_file\n  - grep\n---\nYou check migrations.\nSay what is unsafe.\n`,
    );
    const global = await cli(
      "create",
      "helper",
      "--description",
      "d",
      "--prompt",
      "Be helpful.",
      "--scope",
      "global",
    );
    assert.equal(global.code, 0, global.stderr);
    assert.ok(await Deno.stat(join(home, "skills/helper/SKILL.md")));
    const again = await cli("create", "helper", "--description", "d", "--prompt", "x", "--scope", "global");
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exists/);

    const list = await cli("list", "--json");
    assert.equal(list.code, 0, list.stderr);
    const profiles = JSON.parse(list.stdout).profiles as {
      name: string;
      source: string;
      readOnly: boolean;
    }[];
    assert.deepEqual(
      profiles.map((p) => [p.name, p.source]),
      [
        ["explore", "builtin"],
        ["helper", "home"],
        ["migrations", "project"],
        ["research", "builtin"],
        ["review", "builtin"],
        ["security-review", "builtin"],
      ],
    );
    const text = await cli("list");
    assert.match(
      text.stdout,
      /migrations +Checks database migrations\n +read-only · effort high · tools read_file,grep · project · /,
    );

    const edited = await cli(
      "edit",
      "migrations",
      "--description",
      "Reviews migrations",
      "--model",
      "deepseek-v4-pro",
    );
    assert.equal(edited.code, 0, edited.stderr);
    const after = await Deno.readTextFile(file);
    assert.match(after, /description: Reviews migrations\n/);
    assert.match(after, /model: deepseek-v4-pro\n/);
    assert.match(
      after,
      /read-only: true\n[^]*You check migrations\./,
      "unnamed settings and the prompt stay",
    );

    const builtin = await cli("delete", "review", "--yes");
    assert.equal(builtin.code, 1);
    assert.match(builtin.stderr, /not changed here/);
    const unconfirmed = await cli("delete", "migrations");
    assert.equal(unconfirmed.code, 2);
    assert.ok(await Deno.stat(file));
    const deleted = await cli("delete", "migrations", "--yes");
    assert.equal(deleted.code, 0, deleted.stderr);
    await assert.rejects(Deno.stat(join(ws, ".reasonix/skills/migrations")));
  } finally {
    await removeAll(home, ws);
  }
});
