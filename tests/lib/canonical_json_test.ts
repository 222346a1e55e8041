import assert from "node:assert/strict";
import { canonicalJson } from "../../src/lib/canonical_json.ts";

Deno.test("canonicalJson() sorts object keys recursively and keeps array order", () => {
  const value = { b: 1, a: { z: [3, { y: true, x: null }], c: "s" }, "": 0 };
  assert.equal(canonicalJson(value), '{"":0,"a":{"c":"s","z":[3,{"x":null,"y":true}]},"b":1}');
});

Deno.test("canonicalJson() gives the same bytes whatever the insertion order", () => {
  const one = { type: "object", properties: { path: { type: "string" }, limit: { type: "integer" } } };
  const two = { properties: { limit: { type: "integer" }, path: { type: "string" } }, type: "object" };
  assert.equal(canonicalJson(one), canonicalJson(two));
});

Deno.test("canonicalJson() escapes strings like JSON.stringify and emits no whitespace", () => {
  const value = { text: 'line\n"quoted"\t\u0001é😀', list: [1.5, -0, 1e21] };
  assert.equal(canonicalJson(value), `{"list":[1.5,0,1e+21],"text":${JSON.stringify(value.text)}}`);
  assert.deepEqual(JSON.parse(canonicalJson(value)), { ...value, list: [1.5, 0, 1e21] });
});

Deno.test("canonicalJson() rejects values that are not JSON", () => {
  const bad: unknown[] = [
    undefined,
    () => 1,
    NaN,
    Infinity,
    10n,
    Symbol("s"),
    { a: undefined },
    [1, undefined],
    { nested: { f: () => 1 } },
    new Date(0),
    new Map(),
  ];
  for (const value of bad) {
    assert.throws(() => canonicalJson(value), TypeError, `accepted ${String(value)}`);
  }
});

Deno.test("canonicalJson() names the bad path and rejects cycles", () => {
  assert.throws(() => canonicalJson({ a: [0, { b: NaN }] }), /\$\.a\[1\]\.b/);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.throws(() => canonicalJson(cycle), /circular/);
  const shared = { x: 1 };
  assert.equal(canonicalJson([shared, shared]), '[{"x":1},{"x":1}]');
});

Deno.test("canonicalJson() accepts null-prototype objects", () => {
  const value = Object.assign(Object.create(null), { b: 2, a: 1 });
  assert.equal(canonicalJson(value), '{"a":1,"b":2}');
});
