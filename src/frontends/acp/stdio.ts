/**
 * @module
 * stdout belongs to the protocol: `guardStdout` keeps the real stdout for the connection and sends
 * everything else any module writes there (console.log, Deno.stdout, node's process.stdout) to stderr,
 * so a stray line can never corrupt the JSON-RPC stream.
 */
import process from "node:process";

export interface ProtocolIo {
  output: WritableStream<Uint8Array>;
  input: ReadableStream<Uint8Array>;
  /** Puts stdout back (tests that run the face in-process). */
  restore(): void;
}

export function guardStdout(): ProtocolIo {
  const stdout = Deno.stdout;
  const write = stdout.write.bind(stdout);
  const saved = {
    write: stdout.write,
    writeSync: stdout.writeSync,
    log: console.log,
    info: console.info,
    debug: console.debug,
    nodeWrite: process.stdout.write,
  };
  stdout.write = (bytes) => Deno.stderr.write(bytes);
  stdout.writeSync = (bytes) => Deno.stderr.writeSync(bytes);
  Object.defineProperty(stdout, "writable", { configurable: true, get: () => Deno.stderr.writable });
  console.log = console.info = console.debug = console.error;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  const output = new WritableStream<Uint8Array>({
    async write(chunk) {
      let done = 0;
      while (done < chunk.length) done += await write(chunk.subarray(done));
    },
  });
  return {
    output,
    input: Deno.stdin.readable,
    restore() {
      stdout.write = saved.write;
      stdout.writeSync = saved.writeSync;
      delete (stdout as { writable?: unknown }).writable;
      console.log = saved.log;
      console.info = saved.info;
      console.debug = saved.debug;
      process.stdout.write = saved.nodeWrite;
    },
  };
}
