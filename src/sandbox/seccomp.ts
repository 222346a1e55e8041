/**
 * @module
 * The seccomp filter bubblewrap loads (`--seccomp FD`): a classic-BPF program that refuses, with
 * EPERM, the syscalls a sandboxed command has no use for and an escape would need — mounts, new
 * namespaces, ptrace, keyrings, BPF, kernel modules, file handles. Syscalls from a foreign ABI (x32,
 * i386 on x86_64) are refused as a whole, so nobody reaches `mount` under another number.
 */

export type SeccompArch = "x86_64" | "aarch64";

const AUDIT_ARCH: Record<SeccompArch, number> = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };

type Blocked =
  | "mount"
  | "umount2"
  | "pivot_root"
  | "chroot"
  | "move_mount"
  | "open_tree"
  | "fsopen"
  | "fsconfig"
  | "fsmount"
  | "fspick"
  | "mount_setattr"
  | "unshare"
  | "setns"
  | "ptrace"
  | "process_vm_readv"
  | "process_vm_writev"
  | "keyctl"
  | "add_key"
  | "request_key"
  | "bpf"
  | "perf_event_open"
  | "userfaultfd"
  | "name_to_handle_at"
  | "open_by_handle_at"
  | "init_module"
  | "finit_module"
  | "delete_module"
  | "kexec_load"
  | "kexec_file_load"
  | "swapon"
  | "swapoff"
  | "reboot"
  | "acct"
  | "quotactl"
  | "syslog"
  | "vhangup"
  | "lookup_dcookie";

/** The new mount API: syscalls numbered from 424 up share one number on every architecture. */
const MOUNT_API = {
  move_mount: 429,
  open_tree: 428,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  mount_setattr: 442,
} as const;

/** The Linux syscall numbers of each architecture (asm/unistd_64.h, asm-generic/unistd.h). */
const NUMBERS: Record<SeccompArch, Record<Blocked | "clone" | "clone3", number> & { extra: number[] }> = {
  x86_64: {
    mount: 165,
    umount2: 166,
    pivot_root: 155,
    chroot: 161,
    ...MOUNT_API,
    unshare: 272,
    setns: 308,
    ptrace: 101,
    process_vm_readv: 310,
    process_vm_writev: 311,
    keyctl: 250,
    add_key: 248,
    request_key: 249,
    bpf: 321,
    perf_event_open: 298,
    userfaultfd: 323,
    name_to_handle_at: 303,
    open_by_handle_at: 304,
    init_module: 175,
    finit_module: 313,
    delete_module: 176,
    kexec_load: 246,
    kexec_file_load: 320,
    swapon: 167,
    swapoff: 168,
    reboot: 169,
    acct: 163,
    quotactl: 179,
    syslog: 103,
    vhangup: 153,
    lookup_dcookie: 212,
    clone: 56,
    clone3: 435,
    // iopl, ioperm
    extra: [172, 173],
  },
  aarch64: {
    mount: 40,
    umount2: 39,
    pivot_root: 41,
    chroot: 51,
    ...MOUNT_API,
    unshare: 97,
    setns: 268,
    ptrace: 117,
    process_vm_readv: 270,
    process_vm_writev: 271,
    keyctl: 219,
    add_key: 217,
    request_key: 218,
    bpf: 280,
    perf_event_open: 241,
    userfaultfd: 282,
    name_to_handle_at: 264,
    open_by_handle_at: 265,
    init_module: 105,
    finit_module: 273,
    delete_module: 106,
    kexec_load: 104,
    kexec_file_load: 294,
    swapon: 224,
    swapoff: 225,
    reboot: 142,
    acct: 89,
    quotactl: 60,
    syslog: 116,
    vhangup: 58,
    lookup_dcookie: 18,
    clone: 220,
    clone3: 435,
    extra: [],
  },
};

/** The syscall names refused inside the sandbox, for `reasonix doctor`. */
export const BLOCKED_SYSCALLS: readonly string[] = Object.keys(NUMBERS.x86_64).filter((name) =>
  name !== "clone" && name !== "clone3" && name !== "extra"
);

// CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET | NEWTIME
const CLONE_NEW_ANY = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 |
  0x40000000 | 0x00000080;
const X32_SYSCALL_BIT = 0x40000000;

const LD_W_ABS = 0x20;
const JEQ = 0x15;
const JGE = 0x35;
const JSET = 0x45;
const RET = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
// seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian on both arches)
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

type Label = "deny" | "nosys" | "clone";
type Insn = { code: number; k: number; jt?: Label; jf?: Label; label?: Label };

export function seccompArch(arch: string = Deno.build.arch): SeccompArch | undefined {
  return arch === "x86_64" || arch === "aarch64" ? arch : undefined;
}

/** The filter as bytes of `struct sock_filter[]`, ready for bubblewrap's `--seccomp`. */
export function seccompFilter(arch: SeccompArch): Uint8Array {
  const numbers = NUMBERS[arch];
  const blocked = [...BLOCKED_SYSCALLS.map((name) => numbers[name as Blocked]), ...numbers.extra];
  const program: Insn[] = [
    { code: LD_W_ABS, k: OFFSET_ARCH },
    { code: JEQ, k: AUDIT_ARCH[arch], jf: "deny" },
    { code: LD_W_ABS, k: OFFSET_NR },
    ...(arch === "x86_64" ? [{ code: JGE, k: X32_SYSCALL_BIT, jt: "deny" as const }] : []),
    // clone3 hides its flags behind a pointer: ENOSYS makes libc fall back to clone, which is checked.
    { code: JEQ, k: numbers.clone3, jt: "nosys" },
    { code: JEQ, k: numbers.clone, jt: "clone" },
    ...blocked.map((nr): Insn => ({ code: JEQ, k: nr, jt: "deny" })),
    { code: RET, k: RET_ALLOW },
    { code: LD_W_ABS, k: OFFSET_ARG0_LOW, label: "clone" },
    { code: JSET, k: CLONE_NEW_ANY, jt: "deny" },
    { code: RET, k: RET_ALLOW },
    { code: RET, k: RET_ERRNO | EPERM, label: "deny" },
    { code: RET, k: RET_ERRNO | ENOSYS, label: "nosys" },
  ];
  return assemble(program);
}

function assemble(program: Insn[]): Uint8Array {
  const at = new Map(program.flatMap((insn, index) => insn.label ? [[insn.label, index] as const] : []));
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach((insn, index) => {
    const offset = (label?: Label) => {
      if (!label) return 0;
      const distance = at.get(label)! - index - 1;
      if (distance < 0 || distance > 255) throw new RangeError(`Cannot jump to "${label}" from ${index}`);
      return distance;
    };
    view.setUint16(index * 8, insn.code, true);
    view.setUint8(index * 8 + 2, offset(insn.jt));
    view.setUint8(index * 8 + 3, offset(insn.jf));
    view.setUint32(index * 8 + 4, insn.k >>> 0, true);
  });
  return bytes;
}

/** The bytes as a `printf` format of `\xHH` escapes: no `%`, no NUL in the argument itself. */
export function printfEscaped(bytes: Uint8Array): string {
  return [...bytes].map((byte) => `\\x${byte.toString(16).padStart(2, "0")}`).join("");
}
