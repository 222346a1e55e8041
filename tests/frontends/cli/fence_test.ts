import assert from "node:assert/strict";
import { fencedSession } from "../../../src/frontends/cli/fence.ts";

Deno.test("fencedSession(): run and the interactive TUI are fenced; subcommands and info flags are not", () => {
  for (const args of [[], ["run", "task"], ["-c"], ["--dir", "x", "-r"], ["--yolo", "--", "--help"]]) {
    assert.equal(fencedSession(args), true, args.join(" "));
  }
  for (
    const args of [["setup"], ["doctor"], ["--version"], ["-h"], ["--dir", "x", "--help"], [
      "session",
      "list",
    ]]
  ) {
    assert.equal(fencedSession(args), false, args.join(" "));
  }
});
