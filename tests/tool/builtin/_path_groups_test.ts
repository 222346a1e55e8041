import assert from "node:assert/strict";
import { expandGroups, groupByDirectory, groupRuns } from "../../../src/tool/builtin/_path_groups.ts";

Deno.test("groupByDirectory writes a directory once over two or more names and keeps lone paths whole", () => {
  const paths = ["src/a.ts", "README.md", "src/b.ts", "lib/x/y.ts", "go.mod", "docs/c.md", "src/c.ts"];
  const text = groupByDirectory(paths);
  assert.equal(text, "src/:\na.ts\nb.ts\nc.ts\n\n./:\nREADME.md\ngo.mod\n\nlib/x/y.ts\ndocs/c.md");
  assert.deepEqual(expandGroups(text).sort(), [...paths].sort());
});

Deno.test("groupByDirectory keeps the first-seen order of directories and of names within one", () => {
  const paths = ["b/new.ts", "a/new.ts", "b/old.ts", "a/old.ts"];
  assert.equal(groupByDirectory(paths), "b/:\nnew.ts\nold.ts\n\na/:\nnew.ts\nold.ts");
  assert.equal(groupByDirectory(["only.ts"]), "only.ts");
});

Deno.test("groupRuns puts a run of rows of one path under it and leaves lone rows whole, in order", () => {
  const rows = [
    { path: "a.ts", text: "1 function f" },
    { path: "b.ts", text: "9 class B" },
    { path: "b.ts", text: "12 method m (B)" },
    { path: "c.ts", text: "3 const C" },
    { path: "a.ts", text: "7 type T" },
  ];
  assert.equal(
    groupRuns(rows, ":"),
    "a.ts:1 function f\n\nb.ts\n9 class B\n12 method m (B)\n\nc.ts:3 const C\na.ts:7 type T",
  );
});
