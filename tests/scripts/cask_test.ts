import assert from "node:assert/strict";
import { caskFromManifest } from "../../scripts/cask.ts";

const ARM = "a".repeat(64);
const INTEL = "b".repeat(64);

function manifest(overrides: Record<string, unknown> = {}) {
  return {
    version: "1.2.3",
    assets: {
      "darwin-arm64": {
        name: "reasonix-darwin-arm64.tar.gz",
        url: "https://dl.example/arm.tar.gz",
        sha256: ARM,
      },
      "darwin-x64": {
        name: "reasonix-darwin-x64.tar.gz",
        url: "https://dl.example/x64.tar.gz",
        sha256: INTEL,
      },
      ...overrides,
    },
  };
}

Deno.test("the cask pairs each Mac architecture with its own URL and sha256", () => {
  const cask = caskFromManifest(manifest(), { homepage: "https://example.org" });
  assert.ok(cask.startsWith(`cask "reasonix" do\n  version "1.2.3"\n`), cask);
  assert.match(
    cask,
    new RegExp(`on_arm do\\n    url "https://dl.example/arm.tar.gz"\\n    sha256 "${ARM}"\\n  end`),
  );
  assert.match(
    cask,
    new RegExp(`on_intel do\\n    url "https://dl.example/x64.tar.gz"\\n    sha256 "${INTEL}"\\n  end`),
  );
  assert.match(cask, /homepage "https:\/\/example\.org"/);
  assert.ok(cask.endsWith(`\n  binary "reasonix"\nend\n`), cask);
});

Deno.test("the cask refuses a manifest without a macOS asset or with a malformed checksum", () => {
  const { "darwin-x64": _, ...armOnly } = manifest().assets;
  assert.throws(() => caskFromManifest({ version: "1.2.3", assets: armOnly }), /no darwin-x64 asset/);
  const bad = manifest({ "darwin-arm64": { name: "a", url: "u", sha256: "nothex" } });
  assert.throws(() => caskFromManifest(bad), /bad sha256 for darwin-arm64/);
});
