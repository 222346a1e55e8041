/**
 * @module
 * Synchronous writes of a whole buffer.
 */
/** Writes every byte (a pipe may take fewer per call). */
export function writeAll(target: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += target.writeSync(bytes.subarray(written));
}
