import assert from "node:assert/strict";
import { resolve } from "node:path";
import { adoptChild, liveChildren } from "../../src/sandbox/children.ts";
import { describe, eventually, newMarker, processesOf } from "../support/processes.ts";

const FIXTURE = resolve(import.meta.dirname!, "fixtures/children_exit.ts");

Deno.test("adoptChild tracks a child until its exit status settles", async () => {
  const before = liveChildren();
  const child = adoptChild(new Deno.Command("true", { stdin: "null", stdout: "null" }).spawn(), {
    group: false,
  });
  assert.equal(liveChildren(), before + 1);
  await child.status;
  await Promise.resolve();
  assert.equal(liveChildren(), before);
});

Deno.test("killChildrenAndExit kills every group and child at once, under the fence's --allow-run", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const bash = await Deno.realPath("/bin/bash");
  const marker = newMarker();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-read", `--allow-run=bash,${bash}`, FIXTURE, marker.value],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  await child.status;
  const left = () => processesOf({ leader: child.pid, marker: marker.entry });
  assert.ok(await eventually(() => left().length === 0, 2000), describe(left()));
  const out = await output;
  assert.equal(out.code, 7, new TextDecoder().decode(out.stderr));
  // The job's shell, the command's shell and the direct child; the sleeps are grandchildren.
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "3");
});
