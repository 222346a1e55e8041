import assert from "node:assert/strict";
import { z } from "zod";
import { createModeGate } from "../../src/permission/gate.ts";
import { defineTool, type ToolSpec } from "../../src/tool/tool.ts";

const reader = defineTool({
  name: "peek",
  description: "d",
  parameters: z.object({}),
  readOnly: true,
  execute: () => Promise.resolve({ output: "" }),
}) as ToolSpec;
const writer = { ...reader, name: "poke", readOnly: false } as ToolSpec;

Deno.test("createModeGate() lets readers run in every mode", async () => {
  for (const mode of ["ask", "auto", "yolo"] as const) {
    assert.deepEqual(await createModeGate({ mode, headless: true }).check(reader, {}), { allow: true });
  }
});

Deno.test("createModeGate() fails closed for writers in headless ask mode and names the flag", async () => {
  const decision = await createModeGate({ mode: "ask", headless: true }).check(writer, {});
  assert.equal(decision.allow, false);
  if (decision.allow) return;
  assert.equal(decision.code, "permission.needs_approval");
  assert.match(decision.message, /headless run has nobody to ask/);
  assert.match(decision.message, /--permission-mode auto/);
  assert.doesNotMatch(decision.message, /declined|deny list/);
});

Deno.test("createModeGate() allows writers in auto and yolo, and asks when someone can answer", async () => {
  assert.deepEqual(await createModeGate({ mode: "auto", headless: true }).check(writer, {}), { allow: true });
  assert.deepEqual(await createModeGate({ mode: "yolo", headless: true }).check(writer, {}), { allow: true });
  const no = await createModeGate({ mode: "ask", headless: false, ask: () => Promise.resolve(false) })
    .check(writer, {});
  assert.deepEqual(no, {
    allow: false,
    code: "permission.denied",
    message: `The user declined this "poke" call`,
  });
});
