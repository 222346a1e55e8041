/**
 * @module
 * An append-only JSONL file where every line is written whole in one write, so a crash can cut off
 * at most the line being written. `sync()` makes what was written durable.
 */

export class LineFile {
  #file: Deno.FsFile;
  #encoder = new TextEncoder();

  constructor(file: Deno.FsFile) {
    this.#file = file;
  }

  static async open(path: string): Promise<LineFile> {
    return new LineFile(await Deno.open(path, { append: true, create: true, mode: 0o600 }));
  }

  writeLine(value: unknown): void {
    const bytes = this.#encoder.encode(JSON.stringify(value) + "\n");
    let written = 0;
    while (written < bytes.length) written += this.#file.writeSync(bytes.subarray(written));
  }

  sync(): void {
    this.#file.syncDataSync();
  }

  close(): void {
    this.sync();
    this.#file.close();
  }
}
