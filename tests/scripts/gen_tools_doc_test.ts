import assert from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import {
  DOC_PATH,
  documentedRegistry,
  genToolsDoc,
  REGENERATE,
  renderToolsDoc,
} from "../../scripts/gen_tools_doc.ts";
import { ToolRegistry } from "../../src/tool/registry.ts";
import { defineTool, type ToolSpec } from "../../src/tool/tool.ts";

const REPO = new URL("../..", import.meta.url).pathname;

const fakeWriter = defineTool({
  name: "zeta_write",
  description: "Write *stars* and `ticks` to a <file>.\nSecond line with a_b and _edge_ and ```fences```.",
  parameters: z.object({
    target: z.string().min(1).describe("Where to | write"),
    mode: z.enum(["fast", "safe"]).optional(),
    items: z.array(z.object({ id: z.number().int().min(0).max(9).describe("Item id") })).describe("Items"),
  }),
  readOnly: false,
  execute: () => Promise.resolve({ output: "ok" }),
});

const fakeReader = defineTool({
  name: "alpha_read",
  description: "Read nothing.",
  parameters: z.object({}),
  readOnly: true,
  execute: () => Promise.resolve({ output: "ok" }),
});

function fakeRegistry(): ToolRegistry {
  return new ToolRegistry([fakeWriter, fakeReader] as ToolSpec[]);
}

async function formatMarkdown(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", "md", "-"],
    cwd: REPO,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("docs/TOOLS.md matches renderToolsDoc() of the built-in tools", async () => {
  const expected = renderToolsDoc(documentedRegistry());
  const actual = await Deno.readTextFile(join(REPO, DOC_PATH));
  assert.ok(actual === expected, `${DOC_PATH} is out of date: run ${REGENERATE}`);
});

Deno.test("renderToolsDoc() embeds each tool's canonical JSON byte for byte, sorted by name", () => {
  const registry = documentedRegistry();
  const doc = renderToolsDoc(registry);
  let last = -1;
  for (const name of registry.names()) {
    const at = doc.indexOf(`\`\`\`text\n${registry.toolJson(name)}\n\`\`\``);
    assert.ok(at > last, `the JSON of "${name}" is missing or out of order`);
    last = at;
  }
  const bytes = new TextEncoder().encode(registry.toolsJson()).length;
  assert.ok(doc.includes(`is ${bytes} bytes.`));
});

Deno.test("renderToolsDoc() lists kind, parameters and nested fields from the JSON Schema", () => {
  const doc = renderToolsDoc(fakeRegistry());
  assert.ok(doc.indexOf("## alpha_read") < doc.indexOf("## zeta_write"));
  assert.match(doc, /## alpha_read\n\n\*\*Read-only\*\* \(\d+ bytes\)\n\nRead nothing\.\n\nNo parameters\./);
  assert.match(doc, /## zeta_write\n\n\*\*Writer\*\*/);
  const prose = "Write \\*stars\\* and \\`ticks\\` to a \\<file\\>. Second line with a_b and \\_edge\\_ and";
  assert.ok(doc.includes(prose + " \\`\\`\\`fences\\`\\`\\`."));
  assert.ok(doc.includes(`\n\`\`\`\`text\n${fakeRegistry().toolJson("zeta_write")}\n\`\`\`\`\n`));
  const rows = doc.split("\n").filter((line) => line.startsWith("| `"));
  assert.deepEqual(rows.map((row) => row.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim())), [
    ["`items`", "object[]", "yes", "Items"],
    ["`items[].id`", "integer, 0-9", "yes", "Item id"],
    ["`mode`", 'one of `"fast"`, `"safe"`', "no", ""],
    ["`target`", "string", "yes", "Where to \\| write"],
  ]);
});

Deno.test("renderToolsDoc() output is left unchanged by deno fmt", async () => {
  for (const registry of [documentedRegistry(), fakeRegistry()]) {
    const doc = renderToolsDoc(registry);
    assert.equal(await formatMarkdown(doc), doc);
  }
});

Deno.test("genToolsDoc() writes the file and --check reports a stale one", async () => {
  const root = await Deno.makeTempDir({ prefix: "reasonix_tools_doc_" });
  try {
    await Deno.mkdir(join(root, "docs"));
    const missing = await genToolsDoc(root, { check: true });
    assert.deepEqual(missing, { code: 1, message: `${DOC_PATH} is out of date: run ${REGENERATE}` });
    const written = await genToolsDoc(root, { check: false });
    assert.equal(written.code, 0);
    assert.equal(
      await Deno.readTextFile(join(root, DOC_PATH)),
      renderToolsDoc(documentedRegistry()),
    );
    assert.equal((await genToolsDoc(root, { check: true })).code, 0);
    await Deno.writeTextFile(join(root, DOC_PATH), "# Tools\n");
    assert.equal((await genToolsDoc(root, { check: true })).code, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
