/**
 * @module
 * Passwords for `--auth password`: a bcrypt hash is stored (`[serve] password_hash`), never the
 * password; `reasonix serve --hash-password` reads it from a prompt without echo (or from piped
 * stdin), never from argv, where shell history and `ps` would keep it.
 */
import bcrypt from "bcryptjs";
import { createHash, timingSafeEqual } from "node:crypto";
import { ReasonixError } from "../../lib/errors.ts";

const COST = 12;
/** bcrypt reads only the first 72 bytes; a longer password would pass with any tail. */
const MAX_BYTES = 72;

export function hashPassword(password: string): string {
  checkPassword(password);
  return bcrypt.hashSync(password, COST);
}

export function looksLikeBcrypt(hash: string): boolean {
  return /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(hash);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (new TextEncoder().encode(password).length > MAX_BYTES) return false;
  return await bcrypt.compare(password, hash);
}

/** Equal strings, in a time that does not depend on where they differ (or on their lengths). */
export function sameSecret(a: string, b: string): boolean {
  const hash = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(hash(a), hash(b));
}

/**
 * SHA-256 hex: cookie values are looked up by their hash, so the lookup's timing says nothing about a
 * value anyone could guess.
 */
export function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function checkPassword(password: string): void {
  if (password.length === 0) throw new ReasonixError("usage.bad_value", "Cannot hash an empty password");
  if (new TextEncoder().encode(password).length > MAX_BYTES) {
    throw new ReasonixError(
      "usage.bad_value",
      `Cannot hash the password: bcrypt reads at most ${MAX_BYTES} bytes`,
    );
  }
}

/** Reads one password: from the terminal without echo, or the first line of piped stdin. */
export async function readPassword(prompt: (text: string) => void): Promise<string> {
  if (!Deno.stdin.isTerminal()) {
    const text = new TextDecoder().decode(await new Response(Deno.stdin.readable).arrayBuffer());
    return text.split(/\r?\n/)[0] ?? "";
  }
  prompt("Password: ");
  Deno.stdin.setRaw(true);
  try {
    return await readHidden();
  } finally {
    Deno.stdin.setRaw(false);
    prompt("\n");
  }
}

async function readHidden(): Promise<string> {
  const bytes: number[] = [];
  const buffer = new Uint8Array(64);
  while (true) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) break;
    for (const byte of buffer.subarray(0, n)) {
      if (byte === 3) throw new ReasonixError("usage.cancelled", "Cancelled");
      if (byte === 13 || byte === 10) return new TextDecoder().decode(new Uint8Array(bytes));
      if (byte === 127 || byte === 8) bytes.pop();
      else bytes.push(byte);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
