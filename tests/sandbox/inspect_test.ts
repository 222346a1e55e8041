import assert from "node:assert/strict";
import { capabilityNames, parsePrivileges } from "../../src/sandbox/inspect.ts";

Deno.test("capabilityNames() decodes CapEff hex, naming unknown bits by number", () => {
  assert.deepEqual(capabilityNames("0000000000000000"), []);
  assert.deepEqual(capabilityNames("0000000000200001"), ["cap_chown", "cap_sys_admin"]);
  assert.equal(capabilityNames("000001ffffffffff").length, 41);
  assert.deepEqual(capabilityNames("0000040000000000"), ["cap_42"]);
});

Deno.test("parsePrivileges() reads the status lines, and nothing from other output", () => {
  const status = "CapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nNoNewPrivs:\t1\nSeccomp:\t2\n";
  assert.deepEqual(parsePrivileges(status), { effective: [], bounding: [], noNewPrivs: true, seccomp: 2 });
  assert.equal(parsePrivileges("bwrap: No permissions to create new namespace"), undefined);
});
