/**
 * @module
 * What a sandboxed process really holds, read from its own `/proc/self/status`: capabilities,
 * no_new_privs and seccomp mode. `reasonix doctor` runs `STATUS_COMMAND` through the live sandbox.
 */

export const STATUS_COMMAND = "grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status";

const CAPABILITIES = [
  "chown",
  "dac_override",
  "dac_read_search",
  "fowner",
  "fsetid",
  "kill",
  "setgid",
  "setuid",
  "setpcap",
  "linux_immutable",
  "net_bind_service",
  "net_broadcast",
  "net_admin",
  "net_raw",
  "ipc_lock",
  "ipc_owner",
  "sys_module",
  "sys_rawio",
  "sys_chroot",
  "sys_ptrace",
  "sys_pacct",
  "sys_admin",
  "sys_boot",
  "sys_nice",
  "sys_resource",
  "sys_time",
  "sys_tty_config",
  "mknod",
  "lease",
  "audit_write",
  "audit_control",
  "setfcap",
  "mac_override",
  "mac_admin",
  "syslog",
  "wake_alarm",
  "block_suspend",
  "audit_read",
  "perfmon",
  "bpf",
  "checkpoint_restore",
];

export interface ProcessPrivileges {
  effective: string[];
  bounding: string[];
  noNewPrivs: boolean;
  /** 0 none, 1 strict, 2 filter. */
  seccomp: number;
}

/** Parses the lines `STATUS_COMMAND` prints; undefined when they are missing. */
export function parsePrivileges(status: string): ProcessPrivileges | undefined {
  const field = (name: string) => status.match(new RegExp(`^${name}:\\s*(\\S+)$`, "m"))?.[1];
  const [eff, bnd, nnp, seccomp] = ["CapEff", "CapBnd", "NoNewPrivs", "Seccomp"].map(field);
  if (eff === undefined || bnd === undefined) return undefined;
  return {
    effective: capabilityNames(eff),
    bounding: capabilityNames(bnd),
    noNewPrivs: nnp === "1",
    seccomp: Number(seccomp ?? 0),
  };
}

/** `CapEff`-style hex as capability names (`cap_sys_admin`, or `cap_<bit>` past the known ones). */
export function capabilityNames(hex: string): string[] {
  const bits = BigInt(`0x${hex}`);
  const names: string[] = [];
  for (let bit = 0; bit < 64; bit++) {
    if (bits & (1n << BigInt(bit))) names.push(`cap_${CAPABILITIES[bit] ?? bit}`);
  }
  return names;
}
