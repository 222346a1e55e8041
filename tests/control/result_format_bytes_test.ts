/**
 * Effect test for the compact tool-result formats: a real turn (boot → Controller → loop → dispatch → tools
 * → request body → HTTP) against the simulator, asserting the exact bytes each result adds to the next
 * request, and that nothing the model needs was lost: every line number resolves to its line, every path
 * can be rebuilt, and an old_string pasted with read_file's gutter still edits the file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { expandGroups } from "../../src/tool/builtin/_path_groups.ts";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { withController } from "../support/controller_session.ts";

const LIB = [
  "export function keep(a: number): number {",
  "\tconst doubled = a * 2;",
  "",
  "\treturn doubled;",
  "}",
  "",
  "export class Store {",
  "  get(key: string): string {",
  "    return key;",
  "  }",
  "}",
  "",
].join("\n");

const FILES: Record<string, string> = {
  "src/lib.ts": LIB,
  "src/util/a.ts": "export const keepA = 1;\n",
  "src/util/b.ts": "export const b = 2;\n",
  "README.md": "keep it small\n",
};

const CALLS: { name: string; arguments: string }[] = [
  { name: "read_file", arguments: `{"path":"src/lib.ts"}` },
  { name: "ls", arguments: `{"recursive":true}` },
  { name: "glob", arguments: `{"pattern":"**/*.ts"}` },
  { name: "grep", arguments: `{"pattern":"keep"}` },
  { name: "code_index", arguments: `{"action":"file","path":"src/lib.ts"}` },
];

/** What each call above must put in the request, byte for byte. */
const EXPECTED = [
  "1\texport function keep(a: number): number {\n2\t\tconst doubled = a * 2;\n3\t\n4\t\treturn doubled;\n" +
  "5\t}\n6\t\n7\texport class Store {\n8\t  get(key: string): string {\n9\t    return key;\n10\t  }\n11\t}",
  "README.md\nsrc/\n\nsrc/:\nlib.ts\nutil/\n\nsrc/util/:\na.ts\nb.ts",
  "src/util/:\nb.ts\na.ts\n\nsrc/lib.ts",
  "README.md\n1:keep it small\n\nsrc/lib.ts\n1:export function keep(a: number): number {\n\nsrc/util/a.ts\n" +
  "1:export const keepA = 1;",
  "src/lib.ts\n1 function keep\n7 class Store\n8 method get (Store)",
];

const EDIT = {
  name: "edit_file",
  arguments: JSON.stringify({
    path: "src/lib.ts",
    old_string: "2\t\tconst doubled = a * 2;\n3\t\n4\t\treturn doubled;",
    new_string: "2\t\treturn a * 2;",
  }),
};

async function runSession(): Promise<{ body: string; lib: string }> {
  const script: ScriptedReply[] = [
    { reasoning: "look", toolCalls: CALLS },
    { reasoning: "edit", toolCalls: [EDIT] },
    { content: "done" },
  ];
  let seen = { body: "", lib: "" };
  await withController({
    script,
    files: FILES,
    // glob lists newest first: b.ts, then a.ts, then lib.ts.
    prepare: async ({ ws }) => {
      for (
        const [rel, seconds] of [["src/util/b.ts", 3_000], ["src/util/a.ts", 2_000], ["src/lib.ts", 1_000]]
      ) {
        await Deno.utime(join(ws, rel as string), seconds as number, seconds as number);
      }
    },
    now: () => new Date("2026-12-01T08:00:00Z"),
    flags: { permissionMode: "yolo" },
    listen: false,
  }, async ({ sim, controller, ws }) => {
    assert.equal((await controller.runTurn("look at the code")).subtype, "success");
    assert.equal(sim.requests.length, 3);
    seen = { body: sim.requests[2]!.body, lib: await Deno.readTextFile(join(ws, "src/lib.ts")) };
  });
  return seen;
}

let session: ReturnType<typeof runSession> | undefined;

/** One session serves both tests. */
function sessionOnce(): ReturnType<typeof runSession> {
  return session ??= runSession();
}

function toolContents(body: string): string[] {
  const messages: { role: string; content: string }[] = JSON.parse(body).messages;
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

Deno.test("result formats: each tool result reaches the provider in its compact form, byte for byte", async () => {
  const { body, lib } = await sessionOnce();
  const contents = toolContents(body);
  assert.equal(contents.length, CALLS.length + 1);
  for (const [index, expected] of EXPECTED.entries()) {
    assert.equal(contents[index], expected, CALLS[index]!.name);
    assert.ok(
      body.includes(`"content":${JSON.stringify(expected)}`),
      `${CALLS[index]!.name}: the wire bytes`,
    );
  }
  assert.match(contents[5]!, /^Edited src\/lib\.ts: 1 replacement\n\(old_string matched once read_file's/);
  assert.equal(lib, LIB.replace("\tconst doubled = a * 2;\n\n\treturn doubled;", "\treturn a * 2;"));
});

Deno.test("result formats: line numbers resolve to their lines and every path can be rebuilt", async () => {
  const { body } = await sessionOnce();
  const [read, ls, glob, grep, outline] = toolContents(body) as [string, string, string, string, string];
  const libLines = LIB.split("\n");
  for (const line of read.split("\n")) {
    const [, number, text] = /^(\d+)\t(.*)$/s.exec(line)!;
    assert.equal(text, libLines[Number(number) - 1]);
  }
  const listed = ls.split("\n\n").flatMap((block) => {
    const lines = block.split("\n");
    const dir = lines[0]!.endsWith("/:") ? lines.shift()!.slice(0, -1) : "";
    return lines.map((name) => dir + name);
  });
  assert.deepEqual(listed.sort(), [...Object.keys(FILES), "src/", "src/util/"].sort());
  assert.deepEqual(
    expandGroups(glob).sort(),
    Object.keys(FILES).filter((path) => path.endsWith(".ts")).sort(),
  );
  for (const block of grep.split("\n\n")) {
    const [path, ...hits] = block.split("\n");
    for (const hit of hits) {
      const [, number, text] = /^(\d+):(.*)$/.exec(hit)!;
      assert.equal(FILES[path!]!.split("\n")[Number(number) - 1], text);
    }
  }
  const [path, ...symbols] = outline.split("\n");
  assert.equal(path, "src/lib.ts");
  for (const symbol of symbols) {
    const [number, , name] = symbol.split(" ");
    assert.ok(libLines[Number(number) - 1]!.includes(name!), symbol);
  }
});
