/**
 * @module
 * One long-lived helper per session for the file tools' anchored I/O. Deno refuses /proc/self/fd to
 * any process without --allow-all, and the fenced kernel has scoped permissions, so the walk runs in
 * a child `deno eval` (all permissions by default) that holds real directory fds
 * (_fs_agent_program.ts). It starts on first use, answers framed requests matched by id (callers may
 * overlap; the agent serves them in order), and exits when its stdin closes. Like host_fs.ts it is a
 * host spawn, not a sandbox.
 */
import { basename } from "node:path";
import { type AgentPlace, type AgentReply, type AgentRequest, FsAgentProgram } from "./_fs_agent_program.ts";
import { HOST_FS_EXIT } from "./_host_fs_script.ts";
import { adoptChild } from "./children.ts";

export type { AgentPlace };

/** A request to the agent; `call` numbers it. */
export type FsAgentCall = Omit<AgentRequest, "id">;

export interface FsAgentAnswer {
  reply: AgentReply;
  data: Uint8Array;
}

/** Environment passed through so Deno finds its cache; everything else is dropped. */
const KEPT_ENV = ["HOME", "DENO_DIR", "XDG_CACHE_HOME", "PATH"];

/**
 * Whether this process can start the agent: Linux, run by the `deno` executable (a compiled binary's
 * baked flags are not --allow-all, so it could not read /proc/self/fd either).
 */
export function fsAgentSupported(): boolean {
  return Deno.build.os === "linux" && /^deno$/.test(basename(Deno.execPath()));
}

/** The program handed to `deno eval`: the agent class's own source, run with node:fs. */
export function fsAgentSource(): string {
  const exits = JSON.stringify(HOST_FS_EXIT);
  return `import * as fs from "node:fs";\nnew (${FsAgentProgram.toString()})(fs, ${exits}).serve();\n`;
}

interface Pending {
  resolve(answer: FsAgentAnswer): void;
  reject(error: Error): void;
}

interface Running {
  child: Deno.ChildProcess;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  reader: ReadableStreamDefaultReader<Uint8Array>;
}

export class FsAgent {
  readonly #env: Record<string, string>;
  #running: Running | null = null;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  #pumping = false;
  #closed = false;
  /** How many times a process was started, for tests and the timing script. */
  starts = 0;

  /** `env` is the session's environment; only what Deno needs to start is passed on. */
  constructor(env: Record<string, string>) {
    this.#env = env;
  }

  async call(request: FsAgentCall, payload: Uint8Array = new Uint8Array(0)): Promise<FsAgentAnswer> {
    if (this.#closed) throw new Error("Cannot use the file agent: the session is closed");
    const running = this.#running ?? this.#start();
    const id = this.#nextId++;
    const header = new TextEncoder().encode(JSON.stringify({ ...request, id }));
    const frame = new Uint8Array(8 + header.length + payload.length);
    const view = new DataView(frame.buffer);
    view.setUint32(0, header.length);
    view.setUint32(4, payload.length);
    frame.set(header, 8);
    frame.set(payload, 8 + header.length);
    const answer = new Promise<FsAgentAnswer>((resolve, reject) =>
      this.#pending.set(id, { resolve, reject })
    );
    // The writer queues frames in call order, so concurrent calls never interleave bytes.
    running.writer.write(frame).catch((error) => this.#fail(running, error));
    this.#pump(running);
    return await answer;
  }

  /** Stops the agent; closing its stdin is enough, the kill covers a stuck one. */
  async close(): Promise<void> {
    this.#closed = true;
    const running = this.#running;
    if (running === null) return;
    this.#fail(running, new Error("Cannot finish the file operation: the session closed"));
    await running.writer.close().catch(() => {});
    try {
      running.child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
    await running.reader.cancel().catch(() => {});
    running.child.ref();
    await running.child.status;
  }

  #start(): Running {
    const env: Record<string, string> = { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
    for (const name of KEPT_ENV) {
      const value = this.#env[name];
      if (value !== undefined) env[name] = value;
    }
    // --no-config: never pick up a deno.json (import map, lock file) from wherever this runs.
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", "--quiet", "--ext=js", "--no-remote", "--no-npm", fsAgentSource()],
      cwd: "/",
      clearEnv: true,
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    adoptChild(child, { group: false });
    this.starts++;
    const running = { child, writer: child.stdin.getWriter(), reader: child.stdout.getReader() };
    this.#running = running;
    this.#chunks = [];
    this.#buffered = 0;
    return running;
  }

  /**
   * Reads replies only while some are awaited. The child is ref'd meanwhile (unref also drops its
   * pipes' reads from the event loop) and unref'd when idle, so it never keeps the session alive.
   */
  async #pump(running: Running): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    running.child.ref();
    try {
      while (this.#pending.size > 0 && this.#running === running) {
        const { value, done } = await running.reader.read();
        if (done) throw new Error("the file agent exited");
        this.#chunks.push(value);
        this.#buffered += value.length;
        this.#deliver();
      }
    } catch (error) {
      this.#fail(running, error);
    } finally {
      this.#pumping = false;
      running.child.unref();
    }
    if (this.#pending.size > 0 && this.#running !== null) this.#pump(this.#running);
  }

  #deliver(): void {
    for (;;) {
      if (this.#buffered < 8) return;
      const lengths = this.#peek(8);
      const view = new DataView(lengths.buffer, lengths.byteOffset, 8);
      const headerLength = view.getUint32(0);
      const payloadLength = view.getUint32(4);
      if (this.#buffered < 8 + headerLength + payloadLength) return;
      this.#take(8);
      const reply = JSON.parse(new TextDecoder().decode(this.#take(headerLength))) as AgentReply;
      const data = this.#take(payloadLength);
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      pending?.resolve({ reply, data });
    }
  }

  #peek(length: number): Uint8Array {
    const first = this.#chunks[0]!;
    if (first.length >= length) return first.subarray(0, length);
    const merged = this.#take(length);
    this.#chunks.unshift(merged);
    this.#buffered += length;
    return merged;
  }

  #take(length: number): Uint8Array {
    const first = this.#chunks[0];
    if (first !== undefined && first.length >= length) {
      this.#chunks[0] = first.subarray(length);
      if (this.#chunks[0]!.length === 0) this.#chunks.shift();
      this.#buffered -= length;
      return first.subarray(0, length);
    }
    const out = new Uint8Array(length);
    for (let got = 0; got < length;) {
      const chunk = this.#chunks[0]!;
      const part = chunk.subarray(0, length - got);
      out.set(part, got);
      got += part.length;
      if (part.length === chunk.length) this.#chunks.shift();
      else this.#chunks[0] = chunk.subarray(part.length);
    }
    this.#buffered -= length;
    return out;
  }

  /** A dead or broken agent fails what it owed; the next call starts a fresh one. */
  #fail(running: Running, error: unknown): void {
    if (this.#running !== running) return;
    this.#running = null;
    const reason = error instanceof Error ? error : new Error(String(error));
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
    try {
      running.child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
    running.reader.cancel().catch(() => {});
  }
}
