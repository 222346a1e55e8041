import assert from "node:assert/strict";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname!, "../../..");

/** A fresh process (React picks its build once per process): which build ran, and NODE_ENV afterwards. */
async function reactBuild(viaShell: boolean): Promise<{ act: string; nodeEnv: string | null }> {
  const code = [
    viaShell ? `await (await import("./src/frontends/tui/load_shell.ts")).loadInkShell();` : "",
    `const React = await import("react");`,
    `console.log(JSON.stringify({ act: typeof React.act, nodeEnv: Deno.env.get("NODE_ENV") ?? null }));`,
  ].join("\n");
  const env = { ...Deno.env.toObject() };
  delete env.NODE_ENV;
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-prompt", "--ext=ts", code],
    cwd: ROOT,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(run.success, new TextDecoder().decode(run.stderr));
  return JSON.parse(new TextDecoder().decode(run.stdout).trim().split("\n").at(-1)!);
}

Deno.test("loadInkShell() evaluates React's production build and leaves NODE_ENV unset afterwards", async () => {
  // The development build exports `act`; the production build does not.
  assert.deepEqual(await reactBuild(false), { act: "function", nodeEnv: null });
  assert.deepEqual(await reactBuild(true), { act: "undefined", nodeEnv: null });
});
