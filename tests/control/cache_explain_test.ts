import assert from "node:assert/strict";
import { bootController } from "../../src/control/boot.ts";
import { explainSessionCache, formatCacheReport } from "../../src/control/cache_explain.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";

Deno.test("explainSessionCache() flags a request made after the cache TTL ran out", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ content: "one" }, { content: "two" }, { content: "three" }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const paths = resolvePaths({ REASONIX_HOME: home });
  try {
    const turns: [string, boolean][] = [["2026-12-01T08:00:00Z", false], ["2026-12-01T09:00:00Z", true], [
      "2026-12-03T09:00:00Z",
      true,
    ]];
    for (const [day, resume] of turns) {
      const controller = await bootController({
        cwd: ws,
        headless: true,
        env: {},
        paths,
        now: () => new Date(day),
        ...(resume ? { resume: { kind: "latest" as const } } : {}),
      });
      await controller.runTurn("hi");
      await controller.close();
    }
    const report = await explainSessionCache({ paths, workspace: ws });
    assert.equal(report.cacheTtlMinutes, 1440);
    assert.deepEqual(report.rows.map((r) => r.coldAfterMinutes), [undefined, undefined, 2880]);
    assert.match(
      formatCacheReport(report),
      /2880 min after the previous request, past the cache TTL of 1440 min/,
    );
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
