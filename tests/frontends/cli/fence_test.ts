import assert from "node:assert/strict";
import { fencedSession } from "../../../src/frontends/cli/fence.ts";

Deno.test("fencedSession(): run, acp and the interactive TUI are fenced; subcommands and info flags are not", () => {
  const fenced = [
    [],
    ["run", "task"],
    ["subagent", "try", "x", "t"],
    ["subagent", "run", "x", "t"],
    ["acp"],
    ["--acp"],
    ["-c"],
    ["--dir", "x", "-r"],
    [
      "--yolo",
      "--",
      "--help",
    ],
  ];
  for (const args of fenced) {
    assert.equal(fencedSession(args), true, args.join(" "));
  }
  for (
    const args of [
      ["setup"],
      ["doctor"],
      ["subagent", "list"],
      ["subagent", "run", "--help"],
      ["--version"],
      ["-h"],
      ["--dir", "x", "--help"],
      [
        "session",
        "list",
      ],
    ]
  ) {
    assert.equal(fencedSession(args), false, args.join(" "));
  }
});
