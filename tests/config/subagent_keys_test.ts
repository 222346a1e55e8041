import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/load.ts";
import { fixture } from "./_fixture.ts";

Deno.test("loadConfig() reads the [agent] subagent limits, models and efforts, merged across files", async () => {
  await using fx = await fixture();
  await fx.write(
    fx.paths.globalConfigFile,
    [
      "[agent]",
      "max_subagent_depth = 3",
      "max_subagent_concurrency = 8",
      "max_parallel_writers = 2",
      'subagent_model = "deepseek-flash"',
      'subagent_effort = "low"',
      'subagent_models = { review = "deepseek-pro" }',
      'subagent_efforts = { review = "max" }',
      "",
    ].join("\n"),
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  assert.deepEqual(config.agent.subagents, {
    maxDepth: 3,
    maxConcurrency: 8,
    maxParallelWriters: 2,
    model: "deepseek-flash",
    effort: "low",
    models: { review: "deepseek-pro" },
    efforts: { review: "max" },
  });
});

Deno.test("loadConfig() refuses subagent limits out of 1-32 and writers above the total, at file:line:col", async () => {
  await using fx = await fixture();
  const file = fx.paths.globalConfigFile;
  await fx.write(file, "[agent]\nmax_subagent_depth = 0\n");
  const depth = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.equal(
    depth.message,
    `${file}:2:1: Cannot read "agent.max_subagent_depth": expected an integer from 1 to 32, got 0`,
  );
  await fx.write(file, "[agent]\nmax_subagent_concurrency = 33\n");
  const total = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.match(
    total.message,
    /:2:1: Cannot read "agent\.max_subagent_concurrency": expected an integer from 1 to 32/,
  );
  await fx.write(file, "[agent]\nmax_subagent_concurrency = 2\nmax_parallel_writers = 4\n");
  const writers = await loadConfig({ workspace: fx.workspace, paths: fx.paths }).catch((e) => e);
  assert.equal(
    writers.message,
    `${file}:3:1: Cannot read "agent.max_parallel_writers": 4 is more than agent.max_subagent_concurrency (2)`,
  );
});
