/**
 * `interruptAndSettle`: it interrupts with the given signal, returns as soon as the turn ended, and
 * never waits past its deadline for a turn that does not end.
 */
import assert from "node:assert/strict";
import { interruptAndSettle, type StopSignal } from "../../src/control/mod.ts";

function turn(endsAfterMs: number | null) {
  const state = { busy: true, signals: [] as (StopSignal | undefined)[] };
  return {
    state,
    get busy() {
      return state.busy;
    },
    interrupt(signal?: StopSignal) {
      state.signals.push(signal);
      if (endsAfterMs !== null) setTimeout(() => state.busy = false, endsAfterMs);
    },
  };
}

Deno.test("interruptAndSettle waits for the interrupted turn to end", async () => {
  const running = turn(100);
  const started = performance.now();
  await interruptAndSettle(running, "SIGTERM", performance.now() + 5_000);
  assert.deepEqual(running.state.signals, ["SIGTERM"]);
  assert.equal(running.busy, false);
  assert.ok(performance.now() - started < 2_000);
});

Deno.test("interruptAndSettle gives up at its deadline when the turn does not end", async () => {
  const stuck = turn(null);
  const started = performance.now();
  await interruptAndSettle(stuck, "SIGINT", performance.now() + 200);
  const waited = performance.now() - started;
  assert.equal(stuck.busy, true);
  assert.ok(waited >= 190 && waited < 2_000, `waited ${waited} ms`);
});
