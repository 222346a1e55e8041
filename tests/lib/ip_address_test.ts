import assert from "node:assert/strict";
import { addressRange, parseIpv6 } from "../../src/lib/ip_address.ts";

Deno.test("addressRange() judges every IPv4 spelling the URL parser accepts by its value", () => {
  const spellings = [
    "http://127.0.0.1/",
    "http://0x7f000001/",
    "http://2130706433/",
    "http://017700000001/",
    "http://127.1/",
    "http://0x7f.1/",
    "http://127.000.000.001/",
    "http://%31%32%37.0.0.1/",
    "http://127.0.0.1./",
  ];
  for (const spelling of spellings) {
    assert.equal(addressRange(new URL(spelling).hostname.replace(/\.$/, "")), "loopback", spelling);
  }
});

Deno.test("addressRange() names the range of IPv4 addresses", () => {
  const cases: Record<string, string> = {
    "0.0.0.0": "unspecified",
    "10.1.2.3": "private",
    "100.64.0.1": "shared",
    "100.127.255.254": "shared",
    "100.128.0.1": "public",
    "169.254.1.1": "link-local",
    "169.254.169.254": "metadata",
    "100.100.100.200": "metadata",
    "172.16.0.1": "private",
    "172.31.255.255": "private",
    "172.32.0.1": "public",
    "192.168.1.1": "private",
    "224.0.0.1": "multicast",
    "255.255.255.255": "broadcast",
    "240.0.0.1": "reserved",
    "8.8.8.8": "public",
    "93.184.216.34": "public",
  };
  assert.deepEqual(
    Object.fromEntries(Object.keys(cases).map((ip) => [ip, addressRange(ip)])),
    cases,
  );
});

Deno.test("addressRange() judges IPv6 and the IPv4 address an IPv6 form carries", () => {
  const cases: Record<string, string> = {
    "::": "unspecified",
    "::1": "loopback",
    "[::1]": "loopback",
    "0:0:0:0:0:0:0:1": "loopback",
    "::ffff:127.0.0.1": "loopback",
    "[::ffff:7f00:1]": "loopback",
    "::ffff:a9fe:a9fe": "metadata",
    "::7f00:1": "loopback",
    "64:ff9b::a00:1": "private",
    "2002:7f00:1::": "loopback",
    "fd00:ec2::254": "metadata",
    "fd12:3456::1": "unique-local",
    "fe80::1": "link-local",
    "ff02::1": "multicast",
    "2001:db8::1": "reserved",
    "2606:4700::1111": "public",
    "::ffff:8.8.8.8": "public",
  };
  assert.deepEqual(
    Object.fromEntries(Object.keys(cases).map((ip) => [ip, addressRange(ip)])),
    cases,
  );
});

Deno.test("addressRange() returns null for names and malformed addresses", () => {
  for (
    const text of [
      "localhost",
      "example.com",
      "1.2.3",
      "1.2.3.256",
      "01.2.3.4",
      "1:::2",
      "1::2::3",
      "12345::",
    ]
  ) {
    assert.equal(addressRange(text), null, text);
  }
  assert.equal(parseIpv6("1:2:3:4:5:6:7:8:9"), null);
});
