import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type Baseline,
  checkSize,
  countLines,
  measureFile,
  type Overrun,
  updateBaseline,
} from "../../scripts/check_size.ts";
import { withTempTree } from "./_temp_tree.ts";

const REPO = new URL("../..", import.meta.url).pathname;
const SCRIPT = join(REPO, "scripts/check_size.ts");

/** A function declaration spanning exactly `lines` lines. */
function fn(name: string, lines: number, indent = ""): string {
  const body = Array.from({ length: lines - 2 }, () => `${indent}  n++;\n`).join("");
  return `${indent}function ${name}() {\n${body}${indent}}\n`;
}

function filler(lines: number): string {
  return Array.from({ length: lines }, (_, n) => `export const v${n} = ${n};\n`).join("");
}

function withTree(files: Record<string, string>, fn: (root: string) => Promise<void>): Promise<void> {
  return withTempTree("reasonix_size_", files, fn);
}

async function writeBaseline(root: string, baseline: Baseline): Promise<void> {
  await Deno.mkdir(join(root, "scripts"), { recursive: true });
  await Deno.writeTextFile(join(root, "scripts/size_baseline.json"), JSON.stringify(baseline));
}

async function run(
  root: string,
  ...flags: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", SCRIPT, root, ...flags],
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

function keys(overruns: Overrun[]): string[] {
  return overruns.map((o) => `${o.key}:${o.line}:${o.lines}`);
}

Deno.test("countLines() counts a last line without a newline", () => {
  assert.deepEqual([
    countLines(""),
    countLines("a"),
    countLines("a\n"),
    countLines("a\nb"),
    countLines("\n\n"),
  ], [
    0,
    1,
    1,
    2,
    2,
  ]);
});

Deno.test("measureFile() reports files and functions past the limits", () => {
  assert.deepEqual(keys(measureFile("a.ts", filler(500))), []);
  assert.deepEqual(keys(measureFile("a.ts", filler(501))), ["a.ts:1:501"]);
  assert.deepEqual(keys(measureFile("b.ts", fn("ok", 80) + fn("big", 81))), ["b.ts#big:81:81"]);
});

Deno.test("measureFile() finds methods, arrows and nested functions", () => {
  const body = (lines: number) => Array.from({ length: lines }, () => "    n++;\n").join("");
  const text = [
    "export class Store {\n",
    `  async #append(record: { a: string }): Promise<{ ok: true }> {\n${body(80)}  }\n`,
    `  static create(): Store {\n${body(3)}  }\n`,
    "}\n",
    `export const handler = async (x: number): Promise<void> => {\n${body(80)}};\n`,
    `const plain = function () {\n${body(80)}};\n`,
    `export function outer(): void {\n${fn("inner", 81, "  ")}}\n`,
  ].join("");
  assert.deepEqual(keys(measureFile("c.ts", text)), [
    "c.ts#Store.#append:2:82",
    "c.ts#handler:90:82",
    "c.ts#plain:172:82",
    "c.ts#outer:254:83",
    "c.ts#outer.inner:255:81",
  ]);
});

Deno.test("measureFile() ignores braces in strings, templates, regexes and comments", () => {
  const tricky = [
    "function tricky() {\n",
    '  const a = "}}}";\n',
    "  const b = `${'}'} } ${a}`;\n",
    "  const c = /}/g;\n",
    "  // }\n",
    "  /* } */\n",
    "}\n",
  ].join("");
  const text = tricky + fn("after", 81);
  assert.deepEqual(keys(measureFile("d.ts", text)), ["d.ts#after:8:81"]);
});

Deno.test("checkSize() fails new overruns and exempts tests", async () => {
  await withTree({
    "src/big.ts": filler(501),
    "scripts/tool.ts": fn("long", 90),
    "main.ts": filler(10),
    "tests/big_test.ts": filler(900) + fn("hugeTest", 200),
  }, async (root) => {
    const report = await checkSize(root);
    assert.equal(report.files, 3);
    assert.deepEqual(report.failures, [
      'scripts/tool.ts:1: function "long" has 90 lines, over the 80-line limit — split it along its steps into ' +
      "named helpers, or move a concern into its own file",
      "src/big.ts:1: file has 501 lines, over the 500-line limit — split the file along its concerns " +
      "(one main export per file, helpers in _private.ts)",
    ]);
  });
});

Deno.test("checkSize() tolerates recorded overruns until they grow", async () => {
  await withTree({ "src/big.ts": filler(520) + fn("long", 90) }, async (root) => {
    await writeBaseline(root, {
      files: { "src/big.ts": 610 },
      functions: { "src/big.ts#long": 90, "src/gone.ts#old": 100 },
    });
    const ok = await checkSize(root);
    assert.deepEqual(ok.failures, []);
    assert.deepEqual(keys(ok.tolerated), ["src/big.ts:1:610", "src/big.ts#long:521:90"]);
    assert.deepEqual(ok.removable, ["src/gone.ts#old"]);
    assert.deepEqual(ok.shrunk, []);

    await writeBaseline(root, { files: { "src/big.ts": 600 }, functions: { "src/big.ts#long": 89 } });
    const grown = await checkSize(root);
    assert.deepEqual(
      grown.failures.map((line) => line.split(" — ")[0]),
      [
        "src/big.ts:1: file grew to 610 lines, past its baseline budget of 600",
        'src/big.ts:521: function "long" grew to 90 lines, past its baseline budget of 89',
      ],
    );
  });
});

Deno.test("updateBaseline() refuses to add or raise a budget without allowWiden", async () => {
  await withTree({ "src/big.ts": filler(510), "src/b.ts": fn("long", 85) }, async (root) => {
    await writeBaseline(root, { files: { "src/big.ts": 505 }, functions: {} });
    const before = await Deno.readTextFile(join(root, "scripts/size_baseline.json"));
    const refused = await updateBaseline(root);
    assert.equal(refused.written, false);
    assert.equal(refused.widened.length, 2);
    assert.equal(await Deno.readTextFile(join(root, "scripts/size_baseline.json")), before);

    const widened = await updateBaseline(root, { allowWiden: true });
    assert.equal(widened.written, true);
    const expected = { files: { "src/big.ts": 510 }, functions: { "src/b.ts#long": 85 } };
    assert.deepEqual(JSON.parse(await Deno.readTextFile(join(root, "scripts/size_baseline.json"))), expected);
  });
});

Deno.test("updateBaseline() lowers budgets and drops entries without a flag", async () => {
  await withTree({ "src/big.ts": filler(505), "src/small.ts": filler(3) }, async (root) => {
    await writeBaseline(root, { files: { "src/big.ts": 600, "src/small.ts": 700 }, functions: {} });
    const report = await checkSize(root);
    assert.deepEqual(report.shrunk, ['"src/big.ts" shrank from 600 to 505 lines']);
    assert.deepEqual(report.removable, ["src/small.ts"]);
    const result = await updateBaseline(root);
    assert.equal(result.written, true);
    assert.deepEqual(result.baseline, { files: { "src/big.ts": 505 }, functions: {} });
  });
});

Deno.test("check_size.ts exits 1 on a new overrun and refuses --update", async () => {
  await withTree({ "src/big.ts": filler(501) }, async (root) => {
    const check = await run(root);
    assert.equal(check.code, 1);
    assert.match(
      check.stderr,
      /^src\/big\.ts:1: file has 501 lines, over the 500-line limit — split the file/,
    );
    assert.match(check.stderr, /check_size: 1 overrun in 1 files\n$/);
    const update = await run(root, "--update");
    assert.equal(update.code, 1);
    assert.match(update.stderr, /refusing to add or raise a budget/);
    const widen = await run(root, "--update", "--allow-widen");
    assert.equal(widen.code, 0, widen.stderr);
    const after = await run(root);
    assert.equal(after.code, 0, after.stderr);
    assert.equal(after.stdout, "check_size: 1 files ok (1 recorded overruns tolerated)\n");
  });
});

Deno.test("check_size.ts rejects unknown flags", async () => {
  await withTree({ "src/a.ts": filler(1) }, async (root) => {
    const result = await run(root, "--updat");
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unexpected arguments \["--updat"\]/);
  });
});

Deno.test("checkSize() passes the real repository", async () => {
  const report = await checkSize(REPO);
  assert.deepEqual(report.failures, []);
  assert.ok(report.files > 0);
});
