/**
 * @module
 * The six shipped platforms, one table for compile, npm packages, release archives and upgrade.
 * `key` is `<npm os>-<npm cpu>` (process.platform-process.arch), as in `@reasonix/cli-<key>`.
 */

export interface Platform {
  target: string;
  key: string;
  os: "linux" | "darwin" | "win32";
  cpu: "x64" | "arm64";
  binary: string;
  archive: string;
}

function platform(target: string, key: string): Platform {
  const [os, cpu] = key.split("-") as [Platform["os"], Platform["cpu"]];
  const windows = os === "win32";
  return {
    target,
    key,
    os,
    cpu,
    binary: windows ? "reasonix.exe" : "reasonix",
    archive: `reasonix-${key}${windows ? ".zip" : ".tar.gz"}`,
  };
}

export const PLATFORMS: readonly Platform[] = [
  platform("x86_64-unknown-linux-gnu", "linux-x64"),
  platform("aarch64-unknown-linux-gnu", "linux-arm64"),
  platform("x86_64-apple-darwin", "darwin-x64"),
  platform("aarch64-apple-darwin", "darwin-arm64"),
  platform("x86_64-pc-windows-msvc", "win32-x64"),
  platform("aarch64-pc-windows-msvc", "win32-arm64"),
];

/** The GitHub repository whose releases `reasonix upgrade` reads by default. */
export const RELEASE_REPOSITORY = "reasonix-ai/reasonix";
export const DEFAULT_MANIFEST_URL =
  `https://github.com/${RELEASE_REPOSITORY}/releases/latest/download/latest.json`;

export function platformFor(build: { os: string; arch: string }): Platform | undefined {
  const os = build.os === "windows" ? "win32" : build.os;
  const cpu = build.arch === "x86_64" ? "x64" : build.arch === "aarch64" ? "arm64" : build.arch;
  return PLATFORMS.find((entry) => entry.key === `${os}-${cpu}`);
}

export function npmPackageName(entry: Platform): string {
  return `@reasonix/cli-${entry.key}`;
}
