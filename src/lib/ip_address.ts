/**
 * @module
 * IP address text to bytes, and which range an address is in. Input is a canonical spelling: a WHATWG
 * URL hostname (which already turns `0x7f.1`, `2130706433` and `017700000001` into `127.0.0.1`) or a
 * DNS answer. IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by it.
 */

export type AddressRange =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "shared"
  | "link-local"
  | "unique-local"
  | "metadata"
  | "multicast"
  | "broadcast"
  | "reserved";

/** Cloud instance metadata services (AWS, ECS, Alibaba, AWS IPv6); GCE and Azure use 169.254.169.254. */
const METADATA = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]);

interface Block {
  prefix: number[];
  bits: number;
  range: AddressRange;
}

const V4_BLOCKS: Block[] = [
  { prefix: [0], bits: 8, range: "unspecified" },
  { prefix: [10], bits: 8, range: "private" },
  { prefix: [100, 64], bits: 10, range: "shared" },
  { prefix: [127], bits: 8, range: "loopback" },
  { prefix: [169, 254], bits: 16, range: "link-local" },
  { prefix: [172, 16], bits: 12, range: "private" },
  { prefix: [192, 0, 0], bits: 24, range: "reserved" },
  { prefix: [192, 0, 2], bits: 24, range: "reserved" },
  { prefix: [192, 88, 99], bits: 24, range: "reserved" },
  { prefix: [192, 168], bits: 16, range: "private" },
  { prefix: [198, 18], bits: 15, range: "reserved" },
  { prefix: [198, 51, 100], bits: 24, range: "reserved" },
  { prefix: [203, 0, 113], bits: 24, range: "reserved" },
  { prefix: [224], bits: 4, range: "multicast" },
  { prefix: [240], bits: 4, range: "reserved" },
];

const V6_BLOCKS: Block[] = [
  { prefix: [0x01, 0x00, 0, 0, 0, 0, 0, 0], bits: 64, range: "reserved" },
  { prefix: [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], bits: 48, range: "private" },
  { prefix: [0x20, 0x01, 0x00, 0x00], bits: 32, range: "reserved" },
  { prefix: [0x20, 0x01, 0x0d, 0xb8], bits: 32, range: "reserved" },
  { prefix: [0xfc], bits: 7, range: "unique-local" },
  { prefix: [0xfe, 0x80], bits: 10, range: "link-local" },
  { prefix: [0xfe, 0xc0], bits: 10, range: "private" },
  { prefix: [0xff], bits: 8, range: "multicast" },
];

/** The range of an IPv4 or IPv6 address (brackets allowed), or null when `text` is not one. */
export function addressRange(text: string): AddressRange | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = parseIpv4(bare);
  if (v4) return v4Range(v4);
  const v6 = parseIpv6(bare);
  return v6 ? v6Range(v6) : null;
}

function v4Range(bytes: number[]): AddressRange {
  if (METADATA.has(bytes.join("."))) return "metadata";
  if (bytes.every((byte) => byte === 255)) return "broadcast";
  return V4_BLOCKS.find((block) => inBlock(bytes, block))?.range ?? "public";
}

function v6Range(bytes: number[]): AddressRange {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 16)) return "unspecified";
  if (zeros(0, 15) && bytes[15] === 1) return "loopback";
  if (hex(bytes) === "fd000ec2000000000000000000000254") return "metadata";
  const mapped = zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff;
  const nat64 = [0x00, 0x64, 0xff, 0x9b].every((byte, i) => bytes[i] === byte) && zeros(4, 12);
  if (mapped || zeros(0, 12) || nat64) return v4Range(bytes.slice(12));
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4Range(bytes.slice(2, 6));
  return V6_BLOCKS.find((block) => inBlock(bytes, block))?.range ?? "public";
}

function inBlock(bytes: number[], block: Block): boolean {
  for (let bit = 0; bit < block.bits; bit++) {
    const mask = 0x80 >> (bit % 8);
    const index = Math.floor(bit / 8);
    if ((bytes[index]! & mask) !== ((block.prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

/** Dotted decimal only: other spellings are the URL parser's job, and DNS answers are canonical. */
export function parseIpv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part))) return null;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : null;
}

export function parseIpv6(text: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let groups = text.split(":");
  const tail = groups.at(-1)!;
  if (tail.includes(".")) {
    const v4 = parseIpv4(tail);
    if (!v4) return null;
    groups = [...groups.slice(0, -1), hex(v4.slice(0, 2)), hex(v4.slice(2))];
  }
  const gap = groups.indexOf("");
  let filled = groups;
  if (text.includes("::")) {
    const head = text.startsWith("::") ? [] : groups.slice(0, gap);
    const rest = groups.slice(gap).filter((group) => group !== "");
    if (text.indexOf("::") !== text.lastIndexOf("::") || head.length + rest.length > 7) return null;
    filled = [...head, ...Array(8 - head.length - rest.length).fill("0"), ...rest];
  }
  if (filled.length !== 8 || !filled.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return null;
  return filled.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

function hex(bytes: number[]): string {
  return bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
