/**
 * @module
 * What the compiled binary carries of the npm packages: only those the module graph reaches
 * (`--exclude-unused-npm`), and of those no type declarations, source maps, read-mes, C sources, native
 * addons or tree-sitter grammars the code tools never load. `scripts/check_payload.ts` proves the files
 * the program opens at run time are all still embedded.
 */
import { join, relative, resolve } from "node:path";
import { WASMS_GRAMMARS } from "../src/tool/parse/tree_sitter.ts";

const ROOT = resolve(import.meta.dirname!, "..");

export const PAYLOAD_FLAGS = ["--exclude-unused-npm"];

/** Files no package needs at run time, by name. */
const NOT_RUN = /(\.d\.[cm]?ts|\.map|\.flow|^(?!LICEN[CS]E)[^/]*\.md)$/i;

/** Folders and files of one package (`name`) that nothing loads at run time. */
const UNUSED_PARTS: Record<string, (file: string) => boolean> = {
  // Its C sources, native addons and bindings; the runtime loads only tree-sitter-bash.wasm.
  "tree-sitter-bash": (file) => /^(src|prebuilds|bindings|queries)\/|^(binding\.gyp|grammar\.js)$/.test(file),
  "tree-sitter-wasms": (file) =>
    /^out\/tree-sitter-.*\.wasm$/.test(file) &&
    !WASMS_GRAMMARS.some((language) => file === `out/tree-sitter-${language}.wasm`),
  // The C library and the debug build; `web-tree-sitter` resolves to tree-sitter.js and its wasm.
  "web-tree-sitter": (file) => /^(lib|src|debug)\//.test(file),
  // C++ headers for building tree-sitter-bash's native addon, which the runtime never loads.
  "node-addon-api": () => true,
  // CommonJS builds beside the ES modules Deno resolves these packages to (`import`, not `require`).
  "zod": (file) => file.endsWith(".cjs"),
  "es-toolkit": (file) => file.endsWith(".js"),
  "@modelcontextprotocol/sdk": (file) => /^dist\/(cjs|esm\/examples)\//.test(file),
  "zod-to-json-schema": (file) => file.startsWith("dist/cjs/"),
  // The web UI serves only the prebuilt bundle of common languages (src/frontends/serve/web/vendor.ts).
  "@highlightjs/cdn-assets": (file) => !/^(highlight\.min\.js|package\.json|LICENSE)$/.test(file),
  // ajv's TypeScript sources; it runs from dist/.
  "ajv": (file) => file.startsWith("lib/"),
};

/** Deno's npm cache folder (`deno info --json`). */
export async function npmCacheDir(): Promise<string> {
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output();
  return JSON.parse(new TextDecoder().decode(info.stdout)).npmCache;
}

/** `name@version` of every npm package in deno.lock (peer suffixes dropped). */
export async function lockedPackages(): Promise<{ name: string; version: string }[]> {
  const lock = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.lock")));
  return Object.keys(lock.npm ?? {}).map((key) => {
    // `@scope/name@1.2.3_peer@4.5.6`: the version's `@` is the first after a scope's; `_` starts the
    // peers (a name may hold `_`, a version never does).
    const at = key.indexOf("@", 1);
    return { name: key.slice(0, at), version: key.slice(at + 1).split("_")[0]! };
  });
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.isFile) yield path;
  }
}

/** Absolute paths to pass as `--exclude`: whole files, so the list shows exactly what is left out. */
export async function payloadExcludes(npmCache?: string): Promise<string[]> {
  const registry = join(npmCache ?? await npmCacheDir(), "registry.npmjs.org");
  const excluded: string[] = [];
  for (const { name, version } of await lockedPackages()) {
    const dir = join(registry, name, version);
    const unused = UNUSED_PARTS[name];
    try {
      for await (const path of walk(dir)) {
        const file = relative(dir, path).replaceAll("\\", "/");
        if (NOT_RUN.test(file) || unused?.(file)) excluded.push(path);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return excluded.sort();
}

/** `--exclude-unused-npm` and one `--exclude` per file left out. */
export async function payloadArgs(npmCache?: string): Promise<string[]> {
  const excludes = await payloadExcludes(npmCache);
  return [...PAYLOAD_FLAGS, ...excludes.flatMap((path) => ["--exclude", path])];
}

export interface StandIn {
  /** "Files: N MB" as `deno compile` prints it (MB = 1024 * 1024 bytes, Deno's unit). */
  filesMb: number;
  /** The output's size minus the runtime's: everything the compile appended (files, modules, metadata). */
  appendedBytes: number;
  runtimeBytes: number;
  /** The npm folders embedded, as `name/version` or `name` paths under the npm registry folder. */
  packages: string[];
}

/**
 * Compiles main.ts for this machine's target with `runtime` (DENORT_BIN) as the runtime into a temporary
 * file, which is only a stand-in (with the `deno` binary as runtime it is not a working program).
 */
export async function compileStandIn(runtime: string): Promise<StandIn> {
  const { writeEntry } = await import("./compile.ts");
  const dir = await Deno.makeTempDir({ prefix: "reasonix-payload-" });
  try {
    const entry = await writeEntry({
      target: Deno.build.target,
      commit: "payload",
      dir: join(ROOT, "dist", ".payload"),
    });
    const output = join(dir, "reasonix");
    const { ASSETS } = await import("./compile.ts");
    const includes = ASSETS.flatMap((asset) => {
      try {
        Deno.statSync(join(ROOT, asset));
        return ["--include", join(ROOT, asset)];
      } catch {
        return [];
      }
    });
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["compile", "--no-prompt", "-A", ...await payloadArgs(), ...includes, "--output", output, entry],
      cwd: ROOT,
      env: { DENORT_BIN: runtime, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
    if (!run.success) throw new Error(`deno compile failed:\n${text}`);
    const files = /Files:\s*([\d.]+)\s*(KB|MB|GB)/.exec(text);
    if (!files) throw new Error(`deno compile printed no "Files:" line:\n${text}`);
    const scale = { KB: 1 / 1024, MB: 1, GB: 1024 }[files[2] as "KB" | "MB" | "GB"];
    const runtimeBytes = (await Deno.stat(runtime)).size;
    return {
      filesMb: Number(files[1]) * scale,
      appendedBytes: (await Deno.stat(output)).size - runtimeBytes,
      runtimeBytes,
      packages: embeddedPackages(text),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The npm folders in `deno compile`'s "Embedded Files" tree (`│ ├─┬ chalk` then `│ │ ├── 4.1.2/*`). */
export function embeddedPackages(output: string): string[] {
  const packages: string[] = [];
  const path: string[] = [];
  let inside = false;
  for (const line of output.split("\n")) {
    const match = /^([│ ]*)[├└]─[─┬] (\S+)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 2;
    path.length = depth;
    path.push(match[2]!);
    if (depth === 0) inside = path[0] === ".deno_compile_node_modules";
    if (inside && depth >= 2 && match[2]!.endsWith("/*")) {
      packages.push(path.slice(2).join("/").slice(0, -2));
    }
  }
  return packages;
}
