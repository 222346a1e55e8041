import assert from "node:assert/strict";
import { Command } from "commander";
import { bashScript, commandTree, fishScript, zshScript } from "../../../src/frontends/cli/completion_cmd.ts";

function program(): Command {
  const root = new Command("demo").option("-q, --quiet", "say less");
  const remote = root.command("remote").description("Manage remotes");
  remote.command("add").alias("new").description("Add one").option("--fetch", "fetch: now");
  remote.command("secret", { hidden: true });
  root.command("ship").option("--dry-run", "it's only a test");
  return root;
}

async function shell(command: string, script: string, probe: string): Promise<string> {
  const file = await Deno.makeTempFile({ suffix: ".sh" });
  try {
    await Deno.writeTextFile(file, script);
    const args = ["-c", `source ${file}; ${probe}`];
    const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(file);
  }
}

function has(command: string): boolean {
  try {
    return new Deno.Command(command, { args: ["-c", "exit 0"] }).outputSync().success;
  } catch {
    return false;
  }
}

Deno.test("the command tree comes from the commander definitions, aliases included, hidden ones out", () => {
  const tree = commandTree(program());
  assert.deepEqual(tree.map((node) => node.path), ["", "remote", "remote/add", "remote/new", "ship"]);
  const root = tree[0]!;
  assert.deepEqual(root.commands.map((w) => w.word), ["remote", "ship"]);
  assert.deepEqual(root.options.map((w) => w.word), ["-q", "--quiet", "-h", "--help"]);
  assert.deepEqual(tree[1]!.commands.map((w) => w.word), ["add", "new"]);
});

Deno.test("bash completes subcommands by path and options of the current command", async () => {
  const script = bashScript("demo", commandTree(program()));
  const complete = (words: string[]) =>
    shell(
      "bash",
      script,
      `COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _demo; ` +
        `echo "\${COMPREPLY[*]}"`,
    );
  assert.equal(await complete(["demo", "re"]), "remote\n");
  assert.equal(await complete(["demo", "remote", ""]), "add new -h --help\n");
  assert.equal(await complete(["demo", "remote", "new", "--f"]), "--fetch\n");
  assert.equal(await complete(["demo", "ship", "some-arg", "--d"]), "--dry-run\n");
});

Deno.test({
  name: "zsh offers described words for the current command (skipped without zsh)",
  ignore: !has("zsh"),
  fn: async () => {
    const script = zshScript("demo", commandTree(program()));
    const stubs = `compdef() { :; }; _describe() { print -rl -- "\${(@P)4}"; }; _files() { :; }`;
    const out = await shell("zsh", `${stubs}\n${script}`, `words=(demo remote add ""); CURRENT=4; _demo`);
    assert.equal(out, "--fetch:fetch\\: now\n-h:display help\n--help:display help\n");
  },
});

Deno.test({
  name: "fish completes subcommands and options through its own engine (skipped without fish)",
  ignore: !has("fish"),
  fn: async () => {
    const script = fishScript("demo", commandTree(program()));
    assert.equal(await shell("fish", script, `complete -C "demo remote "`), "add\tAdd one\nnew\tAdd one\n");
    assert.equal(await shell("fish", script, `complete -C "demo ship --d"`), "--dry-run\tit's only a test\n");
  },
});
