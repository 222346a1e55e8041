#!/usr/bin/env node
// The `reasonix` npm launcher: runs the compiled binary from @reasonix/cli-<platform>-<arch>.
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");
const { optionalDependencies, version } = require("../package.json");

const name = `@reasonix/cli-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "reasonix.exe" : "reasonix";

function binaryPath() {
  if (!(name in optionalDependencies)) {
    const known = Object.keys(optionalDependencies).join(", ");
    fail(`reasonix has no build for ${process.platform}-${process.arch} (builds: ${known})`);
  }
  try {
    return path.join(path.dirname(require.resolve(`${name}/package.json`)), "bin", exe);
  } catch {
    fail(
      `reasonix: the platform package ${name} is not installed. npm installs it as an optional ` +
        `dependency; reinstall without --omit=optional, or run: npm install -g ${name}@${version}`,
    );
  }
}

function fail(message) {
  process.stderr.write(message + "\n");
  process.exit(1);
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    // Ctrl+C in a terminal already reached the child through the process group; sending it again
    // would turn one Ctrl+C (cancel the turn) into two (exit).
    if (signal === "SIGINT" && process.stdin.isTTY) return;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on("error", (error) => fail(`reasonix: cannot start ${child.spawnfile}: ${error.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
