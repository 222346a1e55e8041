import assert from "node:assert/strict";
import { join } from "node:path";
import type { Workspace } from "../../src/tool/tool.ts";
import { claimsOverlap, firstOverlap, resolveClaim } from "../../src/tool/write_claims.ts";
import { resolveWritePath } from "../../src/tool/workspace_paths.ts";
import { ToolError } from "../../src/tool/tool.ts";

async function workspace(): Promise<Workspace> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-claims-" }));
  await Deno.mkdir(join(root, "src/lib"), { recursive: true });
  await Deno.mkdir(join(root, ".git/hooks"), { recursive: true });
  await Deno.symlink("/etc", join(root, "escape"));
  return { root, extraWritable: [], forbidRead: [], readOnly: [join(root, ".git/hooks")] };
}

Deno.test("resolveClaim() resolves write_paths like writes and refuses .., symlinks out, read-only paths", async () => {
  const ws = await workspace();
  try {
    const claim = await resolveClaim(ws, ["src", "src/new.ts", "docs/"]);
    assert.deepEqual(claim, {
      paths: [join(ws.root, "src"), join(ws.root, "src/new.ts"), join(ws.root, "docs")],
      whole: false,
    });
    for (const bad of ["../x", "escape/passwd", ".git/hooks/pre-commit", "/etc"]) {
      await assert.rejects(resolveClaim(ws, [bad]), ToolError, bad);
    }
    await assert.rejects(resolveClaim(ws, []), /write_paths is empty/);
    assert.deepEqual(await resolveClaim(ws, undefined), { paths: [ws.root], whole: true });
  } finally {
    await Deno.remove(ws.root, { recursive: true });
  }
});

Deno.test("claimsOverlap(): a path holding another overlaps, siblings do not, a whole claim overlaps all", () => {
  const claim = (...paths: string[]) => ({ paths, whole: false });
  assert.ok(claimsOverlap(claim("/w/src"), claim("/w/src/a.ts")));
  assert.ok(!claimsOverlap(claim("/w/src"), claim("/w/srcs")), "a shared prefix is not containment");
  assert.ok(!claimsOverlap(claim("/w/a", "/w/b"), claim("/w/c")));
  assert.ok(claimsOverlap(claim("/w/src"), claim("/w/SRC/a.ts")), "a case-insensitive disk: one directory");
  assert.ok(claimsOverlap({ paths: ["/w"], whole: true }, claim("/w/c")));
  assert.deepEqual(firstOverlap([claim("/w/a"), claim("/w/b"), claim("/w/a/x")]), [0, 2]);
  assert.equal(firstOverlap([claim("/w/a"), claim("/w/b")]), null);
});

Deno.test("resolveWritePath() with a writeClaim refuses a path outside it, symlinked or not", async () => {
  const ws = await workspace();
  try {
    await Deno.symlink(join(ws.root, "src"), join(ws.root, "docs-link"));
    const claimed: Workspace = { ...ws, writeClaim: [join(ws.root, "src/lib")] };
    assert.equal(await resolveWritePath(claimed, "src/lib/a.ts"), join(ws.root, "src/lib/a.ts"));
    await assert.rejects(resolveWritePath(claimed, "src/b.ts"), /tool\.path_outside_claim|may only change/);
    await assert.rejects(
      resolveWritePath(claimed, "docs-link/b.ts"),
      /may only change its write_paths \("src\/lib"\)/,
    );
    const reader: Workspace = { ...ws, writeClaim: [] };
    await assert.rejects(resolveWritePath(reader, "src/lib/a.ts"), /\(nothing\)/);
  } finally {
    await Deno.remove(ws.root, { recursive: true });
  }
});
