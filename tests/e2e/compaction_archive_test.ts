/** A compaction in a fenced `reasonix run -c` process writes its archive under <state>/archive. */
import assert from "node:assert/strict";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { readArchive } from "../../src/session/archive.ts";

Deno.test("run -c compacts past the ratio and archives the dropped turn inside the fence", async () => {
  const long = "alpha ".repeat(3500);
  const sim = await DeepSeekSim.start({
    script: [{ content: long }, { content: "Goal: alpha." }, { content: "beta" }],
  });
  const home = await makeHome({ simUrl: sim.url, extraToml: "context_window = 8000" });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  try {
    const first = await runCli(["run", "--output-format", "json", "say alpha a lot"], { home, cwd: ws });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const second = await runCli(["run", "-c", "--output-format", "json", "now say beta"], { home, cwd: ws });
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(JSON.parse(second.stdout).result, "beta");
    assert.equal(sim.requests.length, 3);
    const files = [...Deno.readDirSync(`${home}/archive`)];
    assert.equal(files.length, 1);
    const archived = await readArchive(`${home}/archive/${files[0]!.name}`);
    assert.ok(archived.some((entry) => entry.message.content === long));
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
