import assert from "node:assert/strict";
import { join } from "node:path";
import { checkLayers, formatFailure, type LayerFailure } from "../../scripts/check_layers.ts";
import { withTempTree } from "./_temp_tree.ts";

const REPO = new URL("../..", import.meta.url).pathname;
const SCRIPT = join(REPO, "scripts/check_layers.ts");

const DENO_JSON = JSON.stringify({
  imports: {
    "commander": "npm:commander@15.1.0",
    "smol-toml": "npm:smol-toml@1.9.1",
    "zod": "npm:zod@4.6.7",
    "hono": "npm:hono@4.13.19",
    "hono/": "npm:/hono@4.13.19/",
    "diff": "npm:diff@9.0.0",
    "@modelcontextprotocol/sdk/": "npm:/@modelcontextprotocol/sdk@1.32.2/",
    "left-pad": "npm:left-pad@1.3.0",
    "#lib/": "./src/lib/",
  },
});

function withFixture(files: Record<string, string>, fn: (root: string) => Promise<void>): Promise<void> {
  return withTempTree("reasonix_layers_", { "deno.json": DENO_JSON, ...files }, fn);
}

/** `file:line [rule N]` for each failure, to compare whole lists. */
function brief(failures: LayerFailure[]): string[] {
  return failures.map((f) => `${f.file}:${f.line} [rule ${f.rule}]`);
}

async function failuresOf(files: Record<string, string>): Promise<LayerFailure[]> {
  let failures: LayerFailure[] = [];
  await withFixture(files, async (root) => {
    failures = (await checkLayers(root)).failures;
  });
  return failures;
}

const CLEAN: Record<string, string> = {
  "main.ts": 'import { run } from "./src/frontends/run/run.ts";\nimport { Command } from "commander";\n' +
    'import { boot } from "./src/control/mod.ts";\nawait run(boot, new Command());\n',
  "src/frontends/run/run.ts": 'import type { Controller } from "../../control/mod.ts";\n' +
    'import { helper } from "./helper.ts";\nexport function run(c: unknown, p: unknown) { return [c, p, helper]; }\n',
  "src/frontends/run/helper.ts": "export const helper = 1;\n",
  "src/frontends/serve/app.ts":
    'import { Hono } from "hono";\nimport { streamSSE } from "hono/streaming";\n' +
    "export function app() {\n  setInterval(() => {}, 1000);\n  return [Hono, streamSSE];\n}\n",
  "src/control/mod.ts": 'export { boot, type Controller } from "./boot.ts";\n',
  "src/control/boot.ts": 'import { z } from "zod";\nimport { loop } from "../agent/loop.ts";\n' +
    "export type Controller = unknown;\nexport function boot() { return [z, loop]; }\n",
  "src/agent/loop.ts": 'import { slug } from "#lib/text.ts";\nimport { parse } from "../config/load.ts";\n' +
    '// import { x } from "../control/boot.ts";\nconst doc = "import y from \'../frontends/run/run.ts\'";\n' +
    "export function loop() { return [slug, parse, doc]; }\n",
  "src/config/load.ts": 'import { parse as toml } from "smol-toml";\nimport { home } from "./paths.ts";\n' +
    "export function parse(text: string) { return [toml(text), home]; }\n",
  "src/config/paths.ts": 'import { homedir } from "node:os";\n' +
    'export const home = Deno.env.get("REASONIX_HOME") ?? homedir();\n',
  "src/mcp/client.ts":
    'import { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport { Client };\n',
  "src/sandbox/none.ts": 'export function spawn() {\n  return new Deno.Command("sh");\n}\n',
  "src/lib/text.ts": 'import { join } from "node:path";\nimport { lines } from "./diff/lines.ts";\n' +
    "// Deno.env is read in src/config/paths.ts only\nexport function slug() { return [join, lines]; }\n",
  "src/lib/diff/lines.ts": 'import { diffLines } from "diff";\nexport const lines = diffLines;\n',
  "src/tool/builtin/mod.ts": 'import { slug } from "../../lib/text.ts";\n' +
    "export function registerBuiltins(register: (x: unknown) => void) {\n  register(slug);\n}\n",
};

Deno.test("checkLayers() passes a tree that follows every rule", async () => {
  await withFixture(CLEAN, async (root) => {
    const report = await checkLayers(root);
    assert.deepEqual(report.failures.map(formatFailure), []);
    assert.equal(report.files, Object.keys(CLEAN).length);
  });
});

Deno.test("checkLayers() keeps src/lib closed (rule 1)", async () => {
  const failures = await failuresOf({
    "src/lib/a.ts":
      'import { x } from "../tool/tool.ts";\nimport { z } from "zod";\nexport const a = [x, z];\n',
    "src/lib/b.ts": 'import { diffLines } from "diff";\nexport const b = diffLines;\n',
    "src/tool/tool.ts": "export const x = 1;\n",
  });
  assert.deepEqual(brief(failures), [
    "src/lib/a.ts:1 [rule 1]",
    "src/lib/a.ts:2 [rule 1]",
    "src/lib/b.ts:1 [rule 1]",
  ]);
  assert.equal(
    formatFailure(failures[0]!),
    'src/lib/a.ts:1: [rule 1] src/lib is closed and may not import "src/tool/tool.ts" — ' +
      "move the shared code into src/lib, or pass it in from the caller",
  );
  assert.match(failures[2]!.fix, /import it via src\/lib\/diff\/unified\.ts/);
});

Deno.test("checkLayers() lets only frontends and main.ts reach the controller (rule 2)", async () => {
  const failures = await failuresOf({
    "src/util/x.ts": 'export { c } from "../control/c.ts";\n',
    "src/control/c.ts": "export const c = 1;\n",
    "src/control/mod.ts": 'export { c } from "./c.ts";\n',
    "src/frontends/acp/agent.ts": 'export { c } from "../../control/mod.ts";\n',
  });
  assert.deepEqual(brief(failures), ["src/util/x.ts:1 [rule 0]", "src/util/x.ts:1 [rule 2]"]);
  assert.match(failures[1]!.what, /only frontends and main\.ts may import the controller/);
});

Deno.test("checkLayers() lets faces and main.ts import control only through src/control/mod.ts (rule 2)", async () => {
  const failures = await failuresOf({
    "src/control/c.ts": "export const c = 1;\n",
    "src/control/mod.ts": 'export { c } from "./c.ts";\n',
    "src/frontends/tui/app.ts":
      'import { c } from "../../control/mod.ts";\nimport { c as d } from "../../control/c.ts";\n' +
      "export const t = [c, d];\n",
    "main.ts": 'import { c } from "./src/control/c.ts";\nexport const m = c;\n',
  });
  assert.deepEqual(brief(failures), ["main.ts:1 [rule 2]", "src/frontends/tui/app.ts:2 [rule 2]"]);
  assert.equal(
    formatFailure(failures[1]!),
    'src/frontends/tui/app.ts:2: [rule 2] src/frontends/tui imports "src/control/c.ts"; faces reach control only ' +
      "through src/control/mod.ts — import it from src/control/mod.ts (add the export there if a face needs it)",
  );
});

Deno.test("checkLayers() lets a face import src/control/fence.ts, the fence parent's door, besides mod.ts (rule 2)", async () => {
  const failures = await failuresOf({
    "src/control/fence.ts": "export const f = 1;\n",
    "src/control/c.ts": "export const c = 1;\n",
    "src/frontends/cli/fence.ts": 'const { f } = await import("../../control/fence.ts");\n' +
      'const { c } = await import("../../control/c.ts");\nexport const g = [f, c];\n',
  });
  assert.deepEqual(brief(failures), ["src/frontends/cli/fence.ts:2 [rule 2]"]);
});

Deno.test("checkLayers() lets nothing but main.ts import a frontend (rule 3)", async () => {
  const failures = await failuresOf({
    "src/frontends/tui/app.ts": 'import { r } from "../run/run.ts";\nexport const t = r;\n',
    "src/frontends/run/run.ts": "export const r = 1;\n",
    "src/control/c.ts": '\n\nconst m = await import("../frontends/tui/app.ts");\nexport const c = m;\n',
    "src/control/d.ts": 'import "../../main.ts";\n',
    "main.ts": 'import "./src/frontends/tui/app.ts";\n',
  });
  assert.deepEqual(brief(failures), [
    "src/control/c.ts:3 [rule 3]",
    "src/control/d.ts:1 [rule 3]",
    "src/frontends/tui/app.ts:1 [rule 3]",
  ]);
  assert.match(failures[2]!.what, /frontend src\/frontends\/tui may not import frontend src\/frontends\/run/);
  assert.match(failures[2]!.fix, /into src\/control/);
});

Deno.test("checkLayers() lets main.ts load cli.ts, and nothing else import either entry file (rule 3)", async () => {
  const failures = await failuresOf({
    "main.ts": 'const cli = await import("./cli.ts");\nexport const m = cli;\n',
    "cli.ts":
      'import { Command } from "commander";\nimport "./src/frontends/run/run.ts";\nexport const c = Command;\n',
    "src/frontends/run/run.ts": 'import "../../../cli.ts";\n',
  });
  assert.deepEqual(brief(failures), ["src/frontends/run/run.ts:1 [rule 3]"]);
});

Deno.test("checkLayers() keeps the kernel below control and the frontends (rule 4)", async () => {
  const failures = await failuresOf({
    "src/tool/t.ts": 'import {\n  c,\n} from "../control/c.ts";\nexport const t = c;\n',
    "src/session/s.ts": 'import type { R } from "../frontends/run/run.ts";\nexport type S = R;\n',
    "src/control/c.ts": "export const c = 1;\n",
    "src/frontends/run/run.ts": "export type R = 1;\n",
  });
  assert.deepEqual(brief(failures), ["src/session/s.ts:1 [rule 4]", "src/tool/t.ts:1 [rule 4]"]);
  assert.match(failures[1]!.what, /^the kernel \(src\/tool\) may not import "src\/control\/c\.ts"$/);
});

Deno.test("checkLayers() gives each npm package one home (rule 5)", async () => {
  const failures = await failuresOf({
    "src/control/http.ts":
      'import { Hono } from "hono";\nimport { Command } from "commander";\nexport { Command, Hono };\n',
    "src/tool/builtin/edit_file.ts": 'import { createPatch } from "diff";\nimport { z } from "zod";\n' +
      'import { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport { Client, createPatch, z };\n',
    "src/agent/a.ts":
      'import pad from "left-pad";\nimport { x } from "lodash";\nimport { y } from "jsr:@std/path";\n' +
      "export const a = [pad, x, y];\n",
  });
  assert.deepEqual(brief(failures), [
    "src/agent/a.ts:1 [rule 5]",
    "src/agent/a.ts:2 [rule 5]",
    "src/agent/a.ts:3 [rule 5]",
    "src/control/http.ts:1 [rule 5]",
    "src/control/http.ts:2 [rule 5]",
    "src/tool/builtin/edit_file.ts:1 [rule 5]",
    "src/tool/builtin/edit_file.ts:3 [rule 5]",
  ]);
  assert.equal(
    formatFailure(failures[5]!),
    'src/tool/builtin/edit_file.ts:1: [rule 5] npm "diff" belongs to src/lib/diff* — import it via src/lib/diff/unified.ts',
  );
  assert.match(failures[0]!.what, /"left-pad" has no home/);
  assert.match(failures[1]!.what, /not in the deno\.json imports map/);
});

Deno.test("checkLayers() confines env, home dirs and process spawns (rule 6)", async () => {
  const failures = await failuresOf({
    "src/tool/env.ts": 'import * as os from "node:os";\nexport const e = Deno.env.get("X");\n' +
      'export const h = os.homedir();\nexport const r = "REASONIX_HOME";\nexport const p = new Deno.Command("ls");\n' +
      '// Deno.env and homedir() are not read here\nexport const m = "Deno.env";\n',
    "src/agent/spawn.ts": 'import { spawn } from "node:child_process";\nexport { spawn };\n',
    "main.ts": 'const key = Deno.env.get("KEY");\nexport { key };\n',
    "src/sandbox/bwrap.ts": "export const c = Deno.Command;\n",
  });
  assert.deepEqual(brief(failures), [
    "main.ts:1 [rule 6]",
    "src/agent/spawn.ts:1 [rule 6]",
    "src/tool/env.ts:2 [rule 6]",
    "src/tool/env.ts:3 [rule 6]",
    "src/tool/env.ts:4 [rule 6]",
    "src/tool/env.ts:5 [rule 6]",
  ]);
  assert.match(failures[2]!.fix, /src\/config\/paths\.ts/);
  assert.match(failures[5]!.fix, /src\/sandbox/);
});

Deno.test("checkLayers() keeps the exit status in main.ts and error lines in src/lib/errors.ts (rule 6)", async () => {
  const failures = await failuresOf({
    "main.ts": "Deno.exitCode = 2;\nDeno.exit(1);\n",
    "src/lib/errors.ts": "export const text = (m: string) => `error: ${m}\\nhint: see --help`;\n",
    "src/tool/jobs.ts": "export function code(run: { exitCode: number }) { return run.exitCode; }\n" +
      "// Deno.exit is main.ts's alone; a comment may say `error: x`\n",
    "src/frontends/cli/upgrade_cmd.ts": "export function fail() {\n  Deno.exitCode = 1;\n}\n",
    "src/control/fence.ts": "export function quit() {\n  Deno . exit(3);\n}\n",
    "src/frontends/run/run.ts": 'export const line = (m: string) => console.error("error: " + m);\n' +
      "export const hint = (h: string) => `hint: ${h}`;\n",
  });
  assert.deepEqual(brief(failures), [
    "src/control/fence.ts:2 [rule 6]",
    "src/frontends/cli/upgrade_cmd.ts:2 [rule 6]",
    "src/frontends/run/run.ts:1 [rule 6]",
    "src/frontends/run/run.ts:2 [rule 6]",
  ]);
  assert.match(failures[0]!.what, /sets the exit status/);
  assert.match(failures[0]!.fix, /report_error\.ts/);
  assert.match(failures[2]!.what, /error:.*hint:/);
});

Deno.test("checkLayers() flags top-level side effects (rule 7)", async () => {
  const failures = await failuresOf({
    "src/tool/builtin/mod.ts": 'import { registry } from "../registry.ts";\nregistry.register({});\n' +
      "export function later() {\n  registry.register({});\n}\n",
    "src/tool/registry.ts":
      "export const registry = { register(_: unknown) {} };\nsetInterval(() => {}, 10);\n",
    "src/frontends/serve/listen.ts": "export const server = Deno.serve(() => new Response());\n",
  });
  assert.deepEqual(brief(failures), [
    "src/frontends/serve/listen.ts:1 [rule 7]",
    "src/tool/builtin/mod.ts:2 [rule 7]",
    "src/tool/registry.ts:2 [rule 7]",
  ]);
  assert.match(failures[1]!.what, /calls registry\.register\(\) at the top level/);
});

Deno.test("check_layers.ts exits 1 and prints one line per failure", async () => {
  await withFixture(
    { "src/lib/a.ts": 'import "../control/c.ts";\n', "src/control/c.ts": "" },
    async (root) => {
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", "-A", SCRIPT, root],
        env: { NO_COLOR: "1" },
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 1);
      assert.equal(
        stderr,
        'src/lib/a.ts:1: [rule 1] src/lib is closed and may not import "src/control/c.ts" — move the shared code ' +
          "into src/lib, or pass it in from the caller\ncheck_layers: 1 failure in 2 files\n",
      );
    },
  );
});

Deno.test("check_layers.ts prints a summary for a clean tree", async () => {
  await withFixture(CLEAN, async (root) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "-A", SCRIPT, root],
      env: { NO_COLOR: "1" },
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    assert.equal(
      new TextDecoder().decode(output.stdout),
      `check_layers: ${Object.keys(CLEAN).length} files ok\n`,
    );
  });
});

Deno.test("checkLayers() passes the real repository", async () => {
  const report = await checkLayers(REPO);
  assert.deepEqual(report.failures.map(formatFailure), []);
  assert.ok(report.files > 0);
});
