import assert from "node:assert/strict";
import { withBaseEnv } from "../../src/sandbox/env.ts";
import { DirectSandbox } from "../../src/sandbox/none.ts";
import type { RunOptions, RunResult, Sandbox } from "../../src/sandbox/sandbox.ts";

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) text += chunk;
  return text;
}

Deno.test("withBaseEnv() gives background jobs the base env unless they bring their own", async () => {
  const path = Deno.env.get("PATH") ?? "/usr/bin:/bin";
  const sandbox = withBaseEnv(new DirectSandbox(), { PATH: path, MARK: "base" });
  const base = sandbox.spawnShell!("echo ${MARK:-none}", { cwd: "/" });
  assert.equal(await readAll(base.output), "base\n");
  await base.status;
  const own = sandbox.spawnShell!("echo ${MARK:-none}", { cwd: "/", env: { PATH: path } });
  assert.equal(await readAll(own.output), "none\n");
  await own.status;
});

Deno.test("withBaseEnv() keeps a sandbox that cannot spawn jobs without spawnShell", () => {
  const bare: Sandbox = {
    name: "bare",
    runShell: (): Promise<RunResult> => Promise.reject(new Error("unused")),
    runArgv: (_argv: readonly string[], _options: RunOptions): Promise<RunResult> =>
      Promise.reject(new Error("unused")),
  };
  assert.equal(withBaseEnv(bare, {}).spawnShell, undefined);
});
