/**
 * The MCP conformance suite's client auth scenarios (`@modelcontextprotocol/conformance`, pinned) run
 * against tests/conformance/auth_client.ts, which logs in with Reasonix's own OAuth code. The suite is
 * run by this Deno from a directory without deno.json, so the repository's lock file is not touched.
 * Every check of every scenario must pass, warnings included: the `auth` suite (14 scenarios), the
 * 2025-03-26 back-compatibility ones and the draft ones.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";

const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";
const ROOT = resolve(import.meta.dirname!, "../..");
const CLIENT = `${Deno.execPath()} run -A --quiet --config ${join(ROOT, "deno.json")} ${
  join(ROOT, "tests/conformance/auth_client.ts")
}`;
const MORE = [
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
];

async function runSuite(cwd: string, target: string[]): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-lock", SUITE, "client", "--command", CLIENT, ...target, "-o", join(cwd, "out")],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  assert.ok(output.success, text);
}

async function checks(dir: string): Promise<Map<string, { id: string; status: string }[]>> {
  const found = new Map<string, { id: string; status: string }[]>();
  for await (const group of Deno.readDir(dir)) {
    if (!group.isDirectory) continue;
    for await (const run of Deno.readDir(join(dir, group.name))) {
      const file = join(dir, group.name, run.name, "checks.json");
      const scenario = `${group.name}/${run.name.replace(/-\d{4}-\d\d-\d\dT.*$/, "")}`;
      found.set(scenario, JSON.parse(await Deno.readTextFile(file)));
    }
  }
  return found;
}

Deno.test({
  name: "auth_client.ts passes every client auth scenario of the MCP conformance suite",
  fn: async () => {
    const cwd = await Deno.makeTempDir({ prefix: "reasonix-conformance-" });
    try {
      await runSuite(cwd, ["--suite", "auth"]);
      for (const scenario of MORE) await runSuite(cwd, ["--scenario", scenario]);
      const results = await checks(join(cwd, "out"));
      assert.equal(results.size, 14 + MORE.length, [...results.keys()].join(", "));
      for (const [scenario, list] of results) {
        const bad = list.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
        assert.deepEqual(bad, [], scenario);
      }
    } finally {
      await Deno.remove(cwd, { recursive: true });
    }
  },
});
