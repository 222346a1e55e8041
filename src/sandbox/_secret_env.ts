/**
 * @module
 * Which environment variables look like credentials, by name or by value. A name is split into words
 * (on `_`, `-`, `.` and camelCase); a word such as TOKEN, KEY or SESSION marks it, and so does a word
 * ending in a long one (`PGPASSWORD`). A value marks it when it embeds credentials: a URL with
 * `user:password@` or a token query parameter, an `Authorization`-style scheme, a private key, or a
 * well-known token prefix.
 */

/** Whole words that name a secret (`GITHUB_TOKEN`, `SSH_AUTH_SOCK`, `DBUS_SESSION_BUS_ADDRESS`). */
const SECRET_WORDS = new Set([
  "KEY",
  "KEYS",
  "APIKEY",
  "TOKEN",
  "TOKENS",
  "SECRET",
  "SECRETS",
  "PASSWORD",
  "PASSWD",
  "PWD",
  "PASS",
  "PASSPHRASE",
  "CREDENTIAL",
  "CREDENTIALS",
  "CREDS",
  "AUTH",
  "DSN",
  "WEBHOOK",
  "COOKIE",
  "COOKIES",
  "SESSION",
  "PRIVATE",
  "PAT",
  "JWT",
]);

/** Long words that still mark a name when glued to a prefix (`PGPASSWORD`, `GHTOKEN`, `OAUTH`). */
const SECRET_ENDINGS = ["PASSWORD", "PASSWD", "PWD", "PASSPHRASE", "TOKEN", "SECRET", "APIKEY", "AUTH"];

/** Names the shell and the desktop set that only look like secrets. */
const ORDINARY = new Set([
  "PWD",
  "OLDPWD",
  "XDG_SESSION_ID",
  "XDG_SESSION_TYPE",
  "XDG_SESSION_CLASS",
  "XDG_SESSION_DESKTOP",
  "DESKTOP_SESSION",
]);

const SECRET_VALUES = [
  // scheme://user:password@host
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/i,
  /[?&](?:access_token|token|api_?key|key|secret|password|sig|signature)=[^&\s]/i,
  /\b(?:Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /^(?:sk-[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_|glpat-|xox[abprs]-|AKIA[0-9A-Z]{16}$)/,
];

export function secretName(name: string): boolean {
  if (ORDINARY.has(name)) return false;
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase().split(/[^A-Z0-9]+/);
  return words.some((word) =>
    SECRET_WORDS.has(word) ||
    SECRET_ENDINGS.some((ending) => word.length > ending.length && word.endsWith(ending))
  );
}

export function secretValue(value: string): boolean {
  return SECRET_VALUES.some((pattern) => pattern.test(value));
}

/** The rule in one line, for `reasonix doctor`. */
export const SCRUB_RULE =
  "names with a word like KEY, TOKEN, SECRET, PASSWORD, PWD, PASS, AUTH, CREDENTIALS, " +
  "DSN, WEBHOOK, COOKIE, SESSION or PRIVATE (so SSH_AUTH_SOCK too: an agent socket lends the keys), " +
  "and values holding user:password@ URLs, token parameters, Bearer/Basic credentials, private keys or " +
  "known token prefixes";
