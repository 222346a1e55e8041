/**
 * The compact formats lose nothing: from each new result, scripts/measure_results.ts rebuilds the exact
 * text the replaced format printed (the strings below are what the tools returned before the change).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  codeIndexBefore,
  globBefore,
  grepBefore,
  lsBefore,
  outputOf,
  readBefore,
} from "../../scripts/measure_results.ts";
import { codeIndexTool } from "../../src/tool/builtin/code_index.ts";
import { globTool } from "../../src/tool/builtin/glob.ts";
import { grepTool } from "../../src/tool/builtin/grep.ts";
import { lsTool } from "../../src/tool/builtin/ls.ts";
import { readFileTool } from "../../src/tool/builtin/read_file.ts";
import { makeTestWorkspace } from "../tool/_tool_context.ts";

const CODE = Array.from({ length: 10 }, (_, i) => i === 4 ? "\tfunction hit() {}" : `// line ${i + 1}`);

Deno.test("measure_results rebuilds the replaced formats byte for byte from the compact ones", async () => {
  await using t = await makeTestWorkspace();
  await t.write("src/a.ts", CODE.join("\n") + "\n");
  await t.write("src/sub/b.ts", "export function hitToo() {}\n");
  await t.write("src/sub/c.ts", "// no match\n");
  await t.write("big.txt", "x".repeat(20_000));
  for (const [rel, seconds] of [["src/sub/c.ts", 3], ["src/a.ts", 2], ["src/sub/b.ts", 1]] as const) {
    await Deno.utime(join(t.root, rel), seconds, seconds);
  }
  const read = await outputOf(readFileTool, { path: "src/a.ts", limit: 10 }, t.ctx);
  assert.equal(readBefore(read), CODE.map((line, i) => `${String(i + 1).padStart(2)}→${line}`).join("\n"));
  const ls = await outputOf(lsTool, { recursive: true }, t.ctx);
  assert.equal(
    await lsBefore(ls, t.root),
    `big.txt\t20000\nsrc/\nsrc/a.ts\t${
      CODE.join("\n").length + 1
    }\nsrc/sub/\nsrc/sub/b.ts\t28\nsrc/sub/c.ts\t12`,
  );
  const glob = await outputOf(globTool, { pattern: "**/*.ts" }, t.ctx);
  assert.equal(await globBefore(glob, t.root), "src/sub/c.ts\nsrc/a.ts\nsrc/sub/b.ts");
  const grep = await outputOf(grepTool, { pattern: "function hit", context: 1 }, t.ctx);
  assert.equal(
    grepBefore(grep, 1),
    "src/a.ts-4-// line 4\nsrc/a.ts:5:\tfunction hit() {}\nsrc/a.ts-6-// line 6\n--\n" +
      "src/sub/b.ts:1:export function hitToo() {}",
  );
  const outline = await outputOf(codeIndexTool, { action: "search", query: "hit" }, t.ctx);
  assert.equal(codeIndexBefore(outline), "src/a.ts:5 function hit\nsrc/sub/b.ts:1 function hitToo");
});
