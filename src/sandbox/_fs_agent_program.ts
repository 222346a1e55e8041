/**
 * @module
 * The file agent's program (see fs_agent.ts). It is sent to `deno eval` as the source of the
 * `FsAgentProgram` class, so the class must stay self-contained: no imports, no module-level helpers
 * (a bundler may rename those), only `this`.
 * Every path is opened through `/proc/self/fd/<dir fd>/<name>`, which the kernel resolves like
 * `openat(dir fd, name)`, and every directory is entered with O_NOFOLLOW, so a component swapped
 * for a symlink is refused instead of followed.
 *
 * Frames, both ways: u32 header length, u32 payload length (big endian), JSON header, payload.
 */
import type * as NodeFs from "node:fs";

/** A place the client already resolved: a root's realpath, the components below it, a final name. */
export interface AgentPlace {
  root: string;
  rel: string[];
  name: string;
}

export interface AgentRequest extends AgentPlace {
  id: number;
  op: "read" | "write" | "move";
  /** Writable roots (realpaths); the directory reached must still be inside one. */
  roots: string[];
  /** Hidden and read-only paths; the final path must not be inside one. */
  deny: string[];
  mkdirs?: boolean;
  maxBytes?: number;
  to?: AgentPlace;
  overwrite?: boolean;
}

export interface AgentReply {
  id: number;
  ok: boolean;
  exit?: number;
  detail?: string;
  copied?: boolean;
}

export interface AgentExits {
  changed: number;
  notFound: number;
  isDirectory: number;
  parentIsFile: number;
  exists: number;
  special: number;
  tooLarge: number;
  forbidden: number;
}

/** What the agent throws for a refusal it reports with its own exit code. */
interface Refusal {
  refusal: number;
  detail: string;
}

type Fs = typeof NodeFs;

export class FsAgentProgram {
  fs: Fs;
  EXIT: AgentExits;
  DIR: number;

  constructor(fs: Fs, exits: AgentExits) {
    this.fs = fs;
    this.EXIT = exits;
    this.DIR = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;
  }

  at(fd: number, name: string): string {
    return `/proc/self/fd/${fd}/${name}`;
  }

  self(fd: number): string {
    return `/proc/self/fd/${fd}`;
  }

  join(dir: string, name: string): string {
    return dir === "/" ? `/${name}` : `${dir}/${name}`;
  }

  inside(path: string, root: string): boolean {
    return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
  }

  refuse(exit: number, detail: string): Refusal {
    return { refusal: exit, detail };
  }

  code(error: unknown): string | undefined {
    return (error as { code?: string }).code;
  }

  lstatOrNull(path: string): NodeFs.Stats | null {
    try {
      return this.fs.lstatSync(path);
    } catch (error) {
      if (this.code(error) === "ENOENT") return null;
      throw error;
    }
  }

  /** A component that cannot be entered: gone, a symlink now (the race), or a file. */
  walkFailure(error: unknown, parent: number, comp: string, shown: string): unknown {
    const why = this.code(error);
    if (why === "ENOENT") return this.refuse(this.EXIT.notFound, shown);
    if (why === "ELOOP") return this.refuse(this.EXIT.changed, shown);
    if (why === "ENOTDIR") {
      const info = this.lstatOrNull(this.at(parent, comp));
      const changed = info === null || info.isSymbolicLink();
      return this.refuse(changed ? this.EXIT.changed : this.EXIT.parentIsFile, shown);
    }
    return error;
  }

  /** Opens the root by realpath, then each component with O_NOFOLLOW relative to its parent. */
  enter(place: AgentPlace, mkdirs: boolean, held: number[]): number {
    const fs = this.fs;
    let fd = fs.openSync(place.root, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    held.push(fd);
    if (fs.readlinkSync(this.self(fd)) !== place.root) throw this.refuse(this.EXIT.changed, place.root);
    let want = place.root;
    for (const comp of place.rel) {
      want = this.join(want, comp);
      let next: number;
      try {
        next = fs.openSync(this.at(fd, comp), this.DIR);
      } catch (error) {
        if (!mkdirs || this.code(error) !== "ENOENT") throw this.walkFailure(error, fd, comp, want);
        try {
          fs.mkdirSync(this.at(fd, comp), 0o755);
          next = fs.openSync(this.at(fd, comp), this.DIR);
        } catch (again) {
          throw this.walkFailure(again, fd, comp, want);
        }
      }
      held.push(next);
      fd = next;
    }
    if (fs.readlinkSync(this.self(fd)) !== want) throw this.refuse(this.EXIT.changed, want);
    return fd;
  }

  /** Defence in depth: where the kernel says the directory is, not where the client thought. */
  assertPlace(dir: number, name: string, request: AgentRequest): void {
    const real = this.fs.readlinkSync(this.self(dir));
    if (!request.roots.some((root) => this.inside(real, root))) throw this.refuse(this.EXIT.changed, real);
    const full = this.join(real, name);
    // Without case, as the host's checks (a case-insensitive directory opens `.GIT` as `.git`).
    const fold = (path: string) => path.normalize("NFD").toUpperCase().toLowerCase();
    if (request.deny.some((entry) => this.inside(fold(full), fold(entry)))) {
      throw this.refuse(this.EXIT.forbidden, full);
    }
  }

  read(request: AgentRequest, held: number[]): Uint8Array {
    const fs = this.fs;
    const dir = this.enter(request, false, held);
    this.assertPlace(dir, request.name, request);
    let fd: number;
    try {
      const flags = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
      fd = fs.openSync(this.at(dir, request.name), flags);
    } catch (error) {
      throw this.walkFailure(error, dir, request.name, request.name);
    }
    held.push(fd);
    const info = fs.fstatSync(fd);
    if (info.isDirectory()) throw this.refuse(this.EXIT.isDirectory, request.name);
    if (!info.isFile()) throw this.refuse(this.EXIT.special, request.name);
    const max = request.maxBytes ?? Number.MAX_SAFE_INTEGER;
    if (info.size > max) throw this.refuse(this.EXIT.tooLarge, String(info.size));
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const chunk = new Uint8Array(Math.max(65536, info.size - total + 1));
      const got = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) break;
      chunks.push(chunk.subarray(0, got));
      total += got;
      if (total > max) throw this.refuse(this.EXIT.tooLarge, String(total));
    }
    return chunks.length === 1 ? chunks[0]! : this.concat(chunks, total);
  }

  concat(chunks: Uint8Array[], total: number): Uint8Array {
    const out = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  tempName(name: string): string {
    return `.${name.slice(0, 100)}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  }

  createExclusive(dir: number, name: string, mode: number): number {
    const C = this.fs.constants;
    return this.fs.openSync(this.at(dir, name), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, mode);
  }

  writeAll(fd: number, data: Uint8Array): void {
    for (let offset = 0; offset < data.length;) offset += this.fs.writeSync(fd, data, offset);
  }

  /** Temp file made with O_EXCL next to the target, fsync, rename over it, fsync the directory. */
  write(request: AgentRequest, data: Uint8Array, held: number[]): void {
    const fs = this.fs;
    const dir = this.enter(request, request.mkdirs === true, held);
    this.assertPlace(dir, request.name, request);
    const existing = this.lstatOrNull(this.at(dir, request.name));
    if (existing?.isSymbolicLink()) throw this.refuse(this.EXIT.changed, request.name);
    if (existing?.isDirectory()) throw this.refuse(this.EXIT.isDirectory, request.name);
    const temp = this.tempName(request.name);
    const fd = this.createExclusive(dir, temp, 0o644);
    let open = true;
    try {
      if (existing) fs.fchmodSync(fd, existing.mode & 0o7777);
      this.writeAll(fd, data);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      open = false;
      fs.renameSync(this.at(dir, temp), this.at(dir, request.name));
    } catch (error) {
      if (open) fs.closeSync(fd);
      this.removeEntry(dir, temp);
      throw error;
    }
    fs.fsyncSync(dir);
  }

  copyEntry(fromDir: number, from: string, toDir: number, to: string): void {
    const fs = this.fs;
    const info = fs.lstatSync(this.at(fromDir, from));
    if (info.isSymbolicLink()) {
      fs.symlinkSync(fs.readlinkSync(this.at(fromDir, from)), this.at(toDir, to));
    } else if (info.isDirectory()) {
      fs.mkdirSync(this.at(toDir, to), info.mode & 0o7777);
      const source = fs.openSync(this.at(fromDir, from), this.DIR);
      const target = fs.openSync(this.at(toDir, to), this.DIR);
      try {
        for (const child of fs.readdirSync(this.self(source))) this.copyEntry(source, child, target, child);
      } finally {
        fs.closeSync(source);
        fs.closeSync(target);
      }
    } else if (info.isFile()) {
      this.copyFile(fromDir, from, toDir, to, info.mode & 0o7777);
    } else {
      throw this.refuse(this.EXIT.special, from);
    }
  }

  copyFile(fromDir: number, from: string, toDir: number, to: string, mode: number): void {
    const fs = this.fs;
    const C = fs.constants;
    const source = fs.openSync(this.at(fromDir, from), C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
    try {
      const target = this.createExclusive(toDir, to, mode);
      try {
        const buffer = new Uint8Array(1 << 20);
        for (let got; (got = fs.readSync(source, buffer, 0, buffer.length, null)) > 0;) {
          this.writeAll(target, buffer.subarray(0, got));
        }
        fs.fsyncSync(target);
      } finally {
        fs.closeSync(target);
      }
    } finally {
      fs.closeSync(source);
    }
  }

  removeEntry(dir: number, name: string): void {
    const fs = this.fs;
    const info = this.lstatOrNull(this.at(dir, name));
    if (info === null) return;
    if (!info.isDirectory()) return fs.unlinkSync(this.at(dir, name));
    const inner = fs.openSync(this.at(dir, name), this.DIR);
    try {
      for (const child of fs.readdirSync(this.self(inner))) this.removeEntry(inner, child);
    } finally {
      fs.closeSync(inner);
    }
    fs.rmdirSync(this.at(dir, name));
  }

  /** Across filesystems: copy under a temp name, rename it into place, then remove the source. */
  moveAcross(fromDir: number, from: string, toDir: number, to: string): void {
    const temp = this.tempName(to);
    try {
      this.copyEntry(fromDir, from, toDir, temp);
      this.fs.renameSync(this.at(toDir, temp), this.at(toDir, to));
    } catch (error) {
      this.removeEntry(toDir, temp);
      throw error;
    }
    this.removeEntry(fromDir, from);
  }

  /** The destination directory is entered (and made) first and held by fd through the rename. */
  move(request: AgentRequest, held: number[]): boolean {
    const to = request.to!;
    const toDir = this.enter(to, true, held);
    this.assertPlace(toDir, to.name, request);
    const fromDir = this.enter(request, false, held);
    this.assertPlace(fromDir, request.name, request);
    const source = this.at(fromDir, request.name);
    const target = this.at(toDir, to.name);
    if (this.lstatOrNull(source) === null) throw this.refuse(this.EXIT.notFound, request.name);
    if (!request.overwrite && this.lstatOrNull(target) !== null) throw this.refuse(this.EXIT.exists, to.name);
    let copied = false;
    try {
      this.fs.renameSync(source, target);
    } catch (error) {
      if (this.code(error) !== "EXDEV") throw error;
      this.moveAcross(fromDir, request.name, toDir, to.name);
      copied = true;
    }
    this.fs.fsyncSync(toDir);
    this.fs.fsyncSync(fromDir);
    return copied;
  }

  handle(request: AgentRequest, data: Uint8Array): [AgentReply, Uint8Array?] {
    const held: number[] = [];
    const id = request.id;
    try {
      if (request.op === "read") return [{ id, ok: true }, this.read(request, held)];
      if (request.op === "write") {
        this.write(request, data, held);
        return [{ id, ok: true }];
      }
      if (request.op === "move") return [{ id, ok: true, copied: this.move(request, held) }];
      return [{ id, ok: false, exit: 2, detail: `unknown operation ${request.op}` }];
    } catch (error) {
      const refusal = error as Partial<Refusal>;
      if (typeof refusal.refusal === "number") {
        return [{ id, ok: false, exit: refusal.refusal, detail: refusal.detail ?? "" }];
      }
      const why = this.code(error);
      const detail = error instanceof Error ? error.message : String(error);
      return [{ id, ok: false, exit: 1, detail: why ? `${why}: ${detail}` : detail }];
    } finally {
      for (const fd of held) {
        try {
          this.fs.closeSync(fd);
        } catch {
          // Closed by the failing step.
        }
      }
    }
  }

  readExact(length: number): Uint8Array | null {
    const out = new Uint8Array(length);
    for (let got = 0; got < length;) {
      const n = Deno.stdin.readSync(out.subarray(got));
      if (n === null) return null;
      got += n;
    }
    return out;
  }

  send(reply: AgentReply, payload: Uint8Array = new Uint8Array(0)): void {
    const header = new TextEncoder().encode(JSON.stringify(reply));
    const frame = new Uint8Array(8 + header.length + payload.length);
    const view = new DataView(frame.buffer);
    view.setUint32(0, header.length);
    view.setUint32(4, payload.length);
    frame.set(header, 8);
    frame.set(payload, 8 + header.length);
    for (let offset = 0; offset < frame.length;) offset += Deno.stdout.writeSync(frame.subarray(offset));
  }

  /** Serves requests in order; stdin closing means the session (or its process) ended. */
  serve(): void {
    for (;;) {
      const lengths = this.readExact(8);
      if (lengths === null) return;
      const view = new DataView(lengths.buffer);
      const header = this.readExact(view.getUint32(0));
      const payload = this.readExact(view.getUint32(4));
      if (header === null || payload === null) return;
      const [reply, body] = this.handle(JSON.parse(new TextDecoder().decode(header)), payload);
      this.send(reply, body);
    }
  }
}
