/**
 * `reasonix review` end to end: the real CLI in a child process, a real git repository, the simulator.
 * The request carries the diff and the review skill pinned on the tail; the run is read-only (a write
 * the model attempts is refused by the host); `--json` prints the run's JSON result.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

async function repo(): Promise<string> {
  const ws = await makeWorkspace({ "app.ts": "export const limit = 10;\n" });
  await git(ws, "init", "-q", "-b", "main");
  await git(ws, "add", ".");
  await git(ws, "commit", "-q", "-m", "first");
  return ws;
}

type Message = { role: string; content: string };

Deno.test("reasonix review: the working-tree diff with the review skill pinned, read-only, printed", async () => {
  const write = JSON.stringify({ path: "app.ts", content: "hacked\n" });
  const sim = await DeepSeekSim.start({
    script: [
      { reasoning: "try a write", toolCalls: [{ name: "write_file", arguments: write }] },
      { content: "**major** `app.ts:1` the limit went from 10 to 0. Verdict: fix first." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await repo();
  try {
    await Deno.writeTextFile(join(ws, "app.ts"), "export const limit = 0;\n");
    const result = await runCli(["review"], { home, cwd: ws });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout.trim(),
      "**major** `app.ts:1` the limit went from 10 to 0. Verdict: fix first.",
    );
    const first = sim.requests[0]!.json.messages as Message[];
    const turn = first.at(-1)!.content;
    assert.match(turn, /^Review the uncommitted changes in the working tree \(against HEAD\)\./);
    assert.ok(turn.includes("-export const limit = 10;\n+export const limit = 0;"));
    assert.match(turn, /\n\n<skill-pin name="review">\nYou are a careful code reviewer\./);
    const tool = (sim.requests[1]!.json.messages as Message[]).find((m) => m.role === "tool")!;
    assert.match(tool.content, /plan mode/i, "the host refused the write");
    assert.equal(await Deno.readTextFile(join(ws, "app.ts")), "export const limit = 0;\n");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix review --commit --json: one commit's diff, the run's JSON result", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "Looks right." }] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await repo();
  try {
    await Deno.writeTextFile(join(ws, "app.ts"), "export const limit = 20;\n");
    await git(ws, "commit", "-q", "-am", "raise the limit");
    const sha = await git(ws, "rev-parse", "HEAD");
    const result = await runCli(["review", "--commit", sha, "--json"], { home, cwd: ws });
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout.trim());
    assert.equal(json.subtype, "success");
    assert.equal(json.result, "Looks right.");
    const turn = (sim.requests[0]!.json.messages as Message[]).at(-1)!.content;
    assert.ok(turn.startsWith(`Review commit ${sha}.`));
    assert.ok(turn.includes("raise the limit") && turn.includes("+export const limit = 20;"));
    const clean = await runCli(["review", "--json"], { home, cwd: ws });
    assert.equal(clean.code, 1, clean.stderr);
    const failure = JSON.parse(clean.stdout.trim());
    assert.equal(failure.error.code, "review.no_changes");
    assert.equal(failure.result, "Nothing to review: the working tree matches HEAD");
    const bad = await runCli(["review", "--base=--upload-pack=x"], { home, cwd: ws });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /"--upload-pack=x" is not a git revision/);
    assert.equal(sim.requests.length, 1, "nothing else reached the model");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
