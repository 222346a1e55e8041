/**
 * @module
 * Deterministic JSON: object keys sorted (by UTF-16 code unit), no whitespace, arrays in order. The
 * same value always gives the same bytes, which keeps prompt prefixes cacheable.
 */

export function canonicalJson(value: unknown): string {
  return encode(value, "$", new Set());
}

function encode(value: unknown, path: string, seen: Set<object>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) {
        throw new TypeError(`Cannot encode ${path} as JSON: ${value} is not finite`);
      }
      return JSON.stringify(value);
    case "object":
      return encodeObject(value, path, seen);
    default:
      throw new TypeError(`Cannot encode ${path} as JSON: a ${typeof value} is not a JSON value`);
  }
}

function encodeObject(value: object, path: string, seen: Set<object>): string {
  if (seen.has(value)) throw new TypeError(`Cannot encode ${path} as JSON: the value is circular`);
  seen.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item, index) => encode(item, `${path}[${index}]`, seen)).join(",")}]`;
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const kind = value.constructor?.name ?? "object";
      throw new TypeError(`Cannot encode ${path} as JSON: a ${kind} is not a plain object`);
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    const parts = keys.map((key) => `${JSON.stringify(key)}:${encode(record[key], `${path}.${key}`, seen)}`);
    text = `{${parts.join(",")}}`;
  }
  seen.delete(value);
  return text;
}
