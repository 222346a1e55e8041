import assert from "node:assert/strict";
import { approvalLine } from "../../src/control/approval_line.ts";

Deno.test("approvalLine words each answer, with the reason of a denial", () => {
  const asked = { tool: "write_file", subject: "notes.txt" };
  assert.equal(approvalLine(asked, { choice: "allow_once" }), "Allowed once: write_file notes.txt");
  assert.equal(
    approvalLine(asked, { choice: "allow_session" }),
    "Allowed for this session: write_file notes.txt",
  );
  assert.equal(approvalLine(asked, { choice: "allow_always" }), "Always allowed: write_file notes.txt");
  assert.equal(
    approvalLine(asked, { choice: "deny", reason: "not now" }),
    "Denied: write_file notes.txt — not now",
  );
  assert.equal(
    approvalLine(asked, { choice: "deny", cancelled: true }),
    "Approval cancelled: write_file notes.txt",
  );
});

Deno.test("approvalLine shows a script's first line, cut, and a tool without a subject alone", () => {
  const script = `${"x".repeat(150)}\nrm -rf /`;
  const line = approvalLine({ tool: "bash", subject: script }, { choice: "allow_once" });
  assert.equal(line, `Allowed once: bash ${"x".repeat(99)}…`);
  assert.equal(
    approvalLine({ tool: "mcp__srv__go", subject: null }, { choice: "deny" }),
    "Denied: mcp__srv__go",
  );
});
