import assert from "node:assert/strict";
import { BLOCKED_SYSCALLS, printfEscaped, seccompArch, seccompFilter } from "../../src/sandbox/seccomp.ts";

function instructions(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer);
  return Array.from({ length: bytes.length / 8 }, (_, i) => ({
    code: view.getUint16(i * 8, true),
    jt: view.getUint8(i * 8 + 2),
    jf: view.getUint8(i * 8 + 3),
    k: view.getUint32(i * 8 + 4, true),
  }));
}

Deno.test("seccompFilter() checks the architecture first and refuses every blocked syscall", () => {
  for (const [arch, audit, mount] of [["x86_64", 0xc000003e, 165], ["aarch64", 0xc00000b7, 40]] as const) {
    const program = instructions(seccompFilter(arch));
    assert.deepEqual(program[0], { code: 0x20, jt: 0, jf: 0, k: 4 });
    assert.equal(program[1]!.k, audit);
    const compared = program.filter((insn) => insn.code === 0x15).map((insn) => insn.k);
    assert.ok(compared.includes(mount), `${arch} compares mount`);
    assert.ok(compared.length >= BLOCKED_SYSCALLS.length + 2);
    assert.deepEqual(program.at(-2), { code: 0x06, jt: 0, jf: 0, k: 0x00050001 });
    assert.deepEqual(program.at(-1), { code: 0x06, jt: 0, jf: 0, k: 0x00050026 });
  }
  assert.ok(
    instructions(seccompFilter("x86_64")).some((insn) => insn.code === 0x35 && insn.k === 0x40000000),
  );
});

Deno.test("seccompArch() knows x86_64 and aarch64 only; printfEscaped() leaves no format directive", () => {
  assert.equal(seccompArch("riscv64"), undefined);
  assert.equal(seccompArch("aarch64"), "aarch64");
  assert.equal(printfEscaped(new Uint8Array([0, 37, 255])), "\\x00\\x25\\xff");
});
