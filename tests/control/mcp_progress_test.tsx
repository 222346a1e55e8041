/**
 * An MCP call's `notifications/progress` through the real assembly: server-everything's long-running
 * operation, called by the model (the simulator), reaches a Controller subscriber as `tool_progress` events
 * of that call; the same events render on the TUI's running tool card, as an ACP `tool_call_update` and as
 * stream-json lines. They are never recorded: the session log, its replay and the requests carry none.
 */
import assert from "node:assert/strict";
import { stripVTControlCharacters } from "node:util";
import { render } from "ink-testing-library";
import { bootController } from "../../src/control/boot.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import type { ReasonixEvent } from "../../src/control/mod.ts";
import { initialState, reduce, type TuiState } from "../../src/frontends/tui/state.ts";
import { TranscriptEntryView } from "../../src/frontends/tui/components/transcript.tsx";
import { ThemeContext } from "../../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../../src/frontends/tui/theme.ts";
import { updatesOf } from "../../src/frontends/acp/updates.ts";
import { streamJsonLine } from "../../src/frontends/run/event_lines.ts";
import { setLanguage } from "../../src/lib/i18n/mod.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, sessionFiles } from "../support/cli.ts";
import { assertPrependOnly, assertStablePrefix } from "../support/prefix_guard.ts";
import { denoEnv, everythingPlugin } from "../mcp/_servers.ts";

type Progress = Extract<ReasonixEvent, { type: "tool_progress" }>;

const TOOL = "mcp__everything__trigger-long-running-operation";

const EVERYTHING_TOML = everythingPlugin();

/** The running card of `state` as the TUI draws it. */
function runningCard(state: TuiState): string {
  const entry = state.entries.find((item) => item.kind === "tool" && item.status === "running");
  assert.ok(entry, "a running tool card");
  const view = render(
    <ThemeContext.Provider value={makeTheme("dark", false)}>
      <TranscriptEntryView entry={entry} width={100} />
    </ThemeContext.Provider>,
  );
  const frame = stripVTControlCharacters(view.lastFrame() ?? "");
  view.unmount();
  view.cleanup();
  return frame;
}

Deno.test("mcp progress: server-everything's notifications reach every face as the call's progress, never the log", async () => {
  setLanguage("en");
  const sim = await DeepSeekSim.start({
    script: [
      { reasoning: "run it", toolCalls: [{ name: TOOL, arguments: `{"duration":1.2,"steps":4}` }] },
      { content: "done" },
    ],
  });
  const home = await makeHome({ simUrl: sim.url, extraToml: EVERYTHING_TOML });
  const ws = await makeWorkspace({ "a.txt": "a\n" });
  const controller = await bootController({
    cwd: ws,
    headless: true,
    env: denoEnv(),
    paths: resolvePaths({ REASONIX_HOME: home }),
    flags: { permissionMode: "yolo" },
    mcpGraceMs: 120_000,
  });
  const events: ReasonixEvent[] = [];
  const cards: string[] = [];
  let state = initialState();
  const unsubscribe = controller.subscribe((event) => {
    events.push(event);
    state = reduce(state, event);
    if (event.type === "tool_progress") cards.push(runningCard(state));
  });
  try {
    assert.equal((await controller.runTurn("run the long operation")).subtype, "success");
    const call = events.find((event) => event.type === "tool_call");
    assert.ok(call?.type === "tool_call" && call.name === TOOL);
    const progress = events.filter((event): event is Progress => event.type === "tool_progress");
    // The last step may race the result, after which the SDK no longer routes its progress.
    assert.deepEqual(
      progress.slice(0, 3).map((event) => [event.callId, event.name, event.progress, event.total]),
      [[call.callId, TOOL, 1, 4], [call.callId, TOOL, 2, 4], [call.callId, TOOL, 3, 4]],
    );
    const order = events.map((event) => event.type);
    assert.ok(order.indexOf("tool_call") < order.indexOf("tool_progress"));
    assert.ok(order.lastIndexOf("tool_progress") < order.indexOf("tool_result"));

    // The TUI's running card: `◌ name … · 2/4`, then the finished card drops it.
    assert.match(cards[1]!, new RegExp(`◌ ${TOOL}.* · 2/4`));
    const done = state.entries.find((item) => item.kind === "tool");
    assert.ok(done?.kind === "tool" && done.status === "ok");

    // ACP: an in-progress tool_call_update with the text and the figures under _meta.
    const [update] = updatesOf(progress[1]!, { root: ws, replay: false });
    assert.deepEqual(update, {
      sessionUpdate: "tool_call_update",
      toolCallId: call.callId,
      status: "in_progress",
      content: [{ type: "content", content: { type: "text", text: "2/4" } }],
      _meta: { reasonix: { progress: { progress: 2, total: 4 } } },
    });
    // stream-json: the event as it is.
    const line = streamJsonLine(progress[0]!, 7, controller.sessionId);
    assert.equal(line.type, "tool_progress");
    assert.equal(line.progress, 1);

    // Never recorded: not in the log, not in a replay, not in what the model was sent.
    for (const file of await sessionFiles(home)) {
      assert.doesNotMatch(await Deno.readTextFile(file), /tool_progress/);
    }
    assert.ok(!controller.snapshot().some((event) => event.type === "tool_progress"));
    const bodies = sim.requests.map((request) => request.body);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
    const messages = JSON.stringify(sim.requests[1]!.json.messages);
    assert.doesNotMatch(messages, /progress|2\/4/i);
    assert.equal(
      sim.requests[1]!.json.messages.at(-1).content,
      "Long running operation completed. Duration: 1.2 seconds, Steps: 4.",
    );
  } finally {
    unsubscribe();
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
