/**
 * @module
 * Removes credentials from text shown to a person or stored: known secret values (longest first), then
 * well-known inline shapes (API key prefixes, Bearer/Basic credentials, JWTs, private keys, the password
 * of a `scheme://user:password@` URL).
 */

export const INLINE_SECRETS: readonly RegExp[] = [
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}/g,
  /\b(?:Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\bglpat-[A-Za-z0-9_-]{16,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}|\bAKIA[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_.-]+/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:)[^\s/@]+(?=@)/gi,
];

export const REDACTED = "[redacted]";

/** Values shorter than this are not treated as secrets: they would blank ordinary words. */
export const MIN_SECRET_LENGTH = 8;

export function redactSecrets(text: string, known: Iterable<string> = []): string {
  const values = [...new Set(known)].filter((value) => value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const value of values) out = out.split(value).join(REDACTED);
  for (const pattern of INLINE_SECRETS) out = out.replace(pattern, REDACTED);
  return out;
}
