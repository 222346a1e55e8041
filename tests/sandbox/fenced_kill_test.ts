import assert from "node:assert/strict";
import { resolve } from "node:path";

const FIXTURE = resolve(import.meta.dirname!, "fixtures/fenced_kill.ts");

Deno.test("DirectSandbox kills process groups when --allow-run lists executables (the Deno fence)", async () => {
  const bash = await Deno.realPath((await which("bash"))!);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-read", `--allow-run=bash,${bash}`, FIXTURE],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  // Had the kills failed, both sleeps would have run to their end and exited normally.
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), {
    timedOut: true,
    runSignal: "SIGTERM",
    jobSignal: "SIGTERM",
  });
});

async function which(name: string): Promise<string | undefined> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if ((await Deno.stat(`${dir}/${name}`)).isFile) return `${dir}/${name}`;
    } catch {
      // not here
    }
  }
  return undefined;
}
