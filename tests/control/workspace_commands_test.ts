import assert from "node:assert/strict";
import { join } from "node:path";
import type { bootController } from "../../src/control/boot.ts";
import { defaultCommands } from "../../src/control/commands/builtin.ts";
import { sandboxText } from "../../src/control/commands/workspace.ts";
import { setLanguage } from "../../src/lib/i18n/mod.ts";
import type { DeepSeekSim, ScriptedReply } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";

interface Session {
  sim: DeepSeekSim;
  ws: string;
  home: string;
  controller: Awaited<ReturnType<typeof bootController>>;
  /** Runs a command; `diffs` gets what went to printDiff. */
  run: (input: string, diffs?: string[]) => Promise<string>;
}

async function withSession(
  options: { files?: Record<string, string>; script?: ScriptedReply[]; mode?: string },
  body: (s: Session) => Promise<void>,
) {
  setLanguage("en");
  await withController({
    script: options.script ?? [],
    files: options.files ?? { "a.txt": "alpha\n" },
    headless: false,
    flags: options.mode ? { permissionMode: options.mode } : {},
  }, async ({ sim, controller, home, ws }) => {
    controller.subscribe(() => {});
    const commands = defaultCommands();
    const run = async (input: string, diffs?: string[]) => {
      const out: string[] = [];
      const ctx = {
        host: controller,
        print: (text: string) => out.push(text),
        quit: () => {},
        ...(diffs ? { printDiff: (patch: string) => diffs.push(patch) } : {}),
      };
      assert.ok(await commands.dispatch(ctx, input));
      return out.join("\n");
    };
    await body({ sim, ws, home, controller, run });
  });
}

async function git(ws: string, ...args: string[]) {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    cwd: ws,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

Deno.test("/diff shows uncommitted changes against HEAD and lists untracked files", async () => {
  await withSession({}, async ({ ws, run }) => {
    await git(ws, "init", "-q");
    await git(ws, "add", "a.txt");
    await git(ws, "commit", "-q", "-m", "init");
    assert.match(await run("/diff"), /No uncommitted changes\./);
    await Deno.writeTextFile(join(ws, "a.txt"), "alpha\nbeta\n");
    await Deno.writeTextFile(join(ws, "new.txt"), "fresh\n");
    const diffs: string[] = [];
    const out = await run("/diff", diffs);
    assert.equal(diffs.length, 1);
    assert.match(diffs[0]!, /^diff --git a\/a\.txt b\/a\.txt\n/);
    assert.match(diffs[0]!, /\n@@ .* @@\n alpha\n\+beta$/);
    assert.equal(out, "Untracked files (1):\n  new.txt");
    assert.match(
      await run("/diff"),
      /diff --git a\/a\.txt[\s\S]*\+beta[\s\S]*new\.txt/,
      "plain text without printDiff",
    );
  });
});

Deno.test("/diff before the first commit diffs staged files against nothing", async () => {
  await withSession({}, async ({ ws, run }) => {
    await git(ws, "init", "-q");
    await git(ws, "add", "a.txt");
    const diffs: string[] = [];
    await run("/diff", diffs);
    assert.match(diffs[0] ?? "", /new file mode[\s\S]*\+alpha/);
  });
});

Deno.test("/diff outside a git repository says so", async () => {
  await withSession({}, async ({ ws, run }) => {
    assert.equal(await run("/diff"), `${ws} is not a git repository: there is nothing to diff.`);
  });
});

Deno.test("/sandbox shows the backend, network, writable roots, hidden paths and temp dir in force", async () => {
  await withSession({}, async ({ ws, run, controller }) => {
    const out = await run("/sandbox");
    const summary = controller.workspaceOps!.sandbox;
    assert.match(out, /^Backend: {4}(bubblewrap|Seatbelt|none)/);
    assert.match(out, /Network: {4}blocked/);
    assert.match(out, new RegExp(`Writable: {3}${ws}`));
    assert.match(out, /Hidden: {5}[\s\S]*\.env/);
    assert.ok(out.includes(`Read-only:  ${ws}/.git/hooks,`), out);
    assert.ok(out.includes(`Temp dir:   ${summary.tempDir}`), out);
    assert.ok((await Deno.stat(summary.tempDir)).isDirectory);
  });
});

Deno.test("sandboxText() names a disabled sandbox and a refused one", () => {
  const base = { network: true, writable: [], forbidRead: [], readOnly: [], tempDir: "/t" };
  assert.match(
    sandboxText({ ...base, backend: "none", disabled: true }),
    /disabled by \[sandbox\] bash = false/,
  );
  const refused = sandboxText({ ...base, backend: "refused", disabled: false, warning: "No OS sandbox: x" });
  assert.match(refused, /bash is refused/);
  assert.match(refused, /Network: {4}allowed/);
  assert.match(refused, /Warning: {4}No OS sandbox: x/);
  assert.match(refused, /Writable: {3}\(none\)/);
  const git = sandboxText({
    ...base,
    backend: "bubblewrap",
    disabled: false,
    readOnly: ["/w/.git/hooks", "/w/.git/config"],
  });
  assert.match(git, /^Read-only: {2}\/w\/\.git\/hooks, \/w\/\.git\/config$/m);
});

Deno.test("sandboxText() wraps long path lists under the value column at the width it is given", () => {
  const hidden = Array.from({ length: 12 }, (_, i) => `/home/me/.secret-${i}`);
  const summary = { network: false, writable: ["/w"], forbidRead: hidden, readOnly: [], tempDir: "/t" };
  const text = sandboxText({ ...summary, backend: "bubblewrap", disabled: false }, 60);
  const lines = text.split("\n");
  const column = "Read-only:  ".length;
  for (const line of lines) {
    assert.ok(line.length <= 60, `within 60 columns: ${line}`);
    assert.ok(/^\S/.test(line) || line.startsWith(" ".repeat(column)) && line[column] !== " ", line);
  }
  const hiddenLines = lines.slice(lines.findIndex((line) => line.startsWith("Hidden:")), -2);
  assert.ok(hiddenLines.length >= 3, text);
  assert.equal(hiddenLines.map((line) => line.slice(column)).join(" "), hidden.join(", "));
});

const write = (path: string): ScriptedReply => ({
  toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path, content: "x\n" }) }],
});

Deno.test("/reload applies new permission rules at once; a config error keeps the old ones", async () => {
  const script = [
    write("one.txt"),
    { content: "ok" },
    write("blocked.txt"),
    { content: "ok" },
    write("blocked.txt"),
    {
      content: "ok",
    },
  ];
  await withSession({ script, mode: "auto" }, async ({ sim, ws, controller, run }) => {
    await controller.runTurn("write one");
    assert.equal(await Deno.readTextFile(join(ws, "one.txt")), "x\n");
    await Deno.writeTextFile(join(ws, "reasonix.toml"), `[permissions]\ndeny = ["Edit(blocked.txt)"]\n`);
    const out = await run("/reload");
    assert.match(out, new RegExp(`Reloaded .*${join(ws, "reasonix.toml")}.*Permission rules apply`));
    assert.match(out, /Instruction files unchanged\./);
    await controller.runTurn("write blocked");
    const denied = sim.requests[3]!.json.messages.at(-1);
    assert.equal(denied.role, "tool");
    assert.match(denied.content, /^Error \[permission\.denied\]/);
    await assert.rejects(Deno.stat(join(ws, "blocked.txt")), Deno.errors.NotFound);

    await Deno.writeTextFile(join(ws, "reasonix.toml"), `[permissions]\ndeny = 5\n`);
    const failed = await run("/reload");
    assert.match(
      failed,
      /^Settings not reloaded; the previous ones stay in force:\n.*reasonix\.toml:2:\d+: /,
    );
    await controller.runTurn("write blocked again");
    await assert.rejects(
      Deno.stat(join(ws, "blocked.txt")),
      Deno.errors.NotFound,
      "the deny rule still holds",
    );
  });
});

Deno.test("/reload says changed instruction files apply to the next session and leaves the system prompt alone", async () => {
  await withSession(
    { script: [{ content: "a" }, { content: "b" }] },
    async ({ sim, ws, home, controller, run }) => {
      await controller.runTurn("one");
      await Deno.writeTextFile(join(ws, "AGENTS.md"), "Always answer in haiku.\n");
      await Deno.writeTextFile(join(home, "config.toml"), `\n[permissions]\nmode = "auto"\n`, {
        append: true,
      });
      const out = await run("/reload");
      assert.match(out, /Permission mode is now auto\./);
      assert.equal(controller.permissionMode, "auto");
      assert.match(out, /Instruction files changed: they apply to the next session/);
      await controller.runTurn("two");
      const [first, second] = [sim.requests[0]!.json.messages[0], sim.requests[1]!.json.messages[0]];
      assert.equal(JSON.stringify(second), JSON.stringify(first));
      assert.doesNotMatch(second.content, /haiku/);
    },
  );
});
