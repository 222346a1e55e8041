import assert from "node:assert/strict";
import { choose } from "../../src/control/subagent_runner.ts";
import type { SubagentHost } from "../../src/control/subagent_host.ts";
import type { SubagentRequest } from "../../src/tool/subagent_port.ts";

function host(settings: SubagentHost["settings"]): SubagentHost {
  return { model: "executor", effort: "auto", settings } as SubagentHost;
}

const profile = { name: "review", body: "You review.", model: "front", effort: "low" };

Deno.test("choose(): per-profile config > call argument > profile frontmatter > agent.subagent_* > executor", () => {
  const all = {
    models: { review: "config-profile" },
    efforts: { review: "max" as const },
    model: "config",
    effort: "high" as const,
  };
  const request: SubagentRequest = {
    prompt: "p",
    readOnly: true,
    profile,
    model: "call",
    effort: "disabled",
  };
  assert.deepEqual(choose(host(all), request), { model: "config-profile", effort: "max" });
  const { models: _m, efforts: _e, ...noProfileEntry } = all;
  assert.deepEqual(choose(host(noProfileEntry), request), { model: "call", effort: "disabled" });
  const { model: _model, effort: _effort, ...fromProfile } = request;
  assert.deepEqual(choose(host(noProfileEntry), fromProfile), { model: "front", effort: "low" });
  const { profile: _p, ...bare } = fromProfile;
  assert.deepEqual(choose(host(noProfileEntry), bare), { model: "config", effort: "high" });
  assert.deepEqual(choose(host({}), bare), { model: "executor", effort: "auto" });
  assert.deepEqual(choose(host({ models: { other: "x" } }), request), { model: "call", effort: "disabled" });
});
