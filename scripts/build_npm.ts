/**
 * `deno run -A scripts/build_npm.ts [--dist DIR] [--out DIR] [--license FILE] [--platform KEY ...]`
 * writes the six platform packages `@reasonix/cli-<key>` (binary in bin/, os/cpu, license, README)
 * from DIR/<target>/ and the `reasonix` launcher package from npm-launcher/, all at the version of
 * deno.json, then `npm pack`s each into OUT. Default: all six platforms, dist/ → dist/npm/.
 */
import { basename, join, resolve } from "node:path";
import { npmPackageName, type Platform, PLATFORMS } from "../src/lib/platforms.ts";
import { VERSION } from "../src/lib/version.ts";

const ROOT = resolve(import.meta.dirname!, "..");
const LAUNCHER = join(ROOT, "npm-launcher");

export interface BuildNpmOptions {
  distDir: string;
  outDir: string;
  licenseFile: string;
  platforms: Platform[];
}

export interface BuiltPackage {
  name: string;
  dir: string;
  tarball: string;
}

export function parseArgs(args: string[]): BuildNpmOptions {
  const options: BuildNpmOptions = {
    distDir: join(ROOT, "dist"),
    outDir: join(ROOT, "dist", "npm"),
    licenseFile: join(ROOT, "LICENSE"),
    platforms: [],
  };
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = [args[i]!, args[i + 1]];
    if (value === undefined) throw new TypeError(`Missing value for ${flag}`);
    i++;
    if (flag === "--dist") options.distDir = resolve(value);
    else if (flag === "--out") options.outDir = resolve(value);
    else if (flag === "--license") options.licenseFile = resolve(value);
    else if (flag === "--platform") options.platforms.push(platformByKey(value));
    else throw new TypeError(`Unknown argument "${flag}": use --dist, --out, --license or --platform`);
  }
  if (options.platforms.length === 0) options.platforms = [...PLATFORMS];
  return options;
}

function platformByKey(key: string): Platform {
  const found = PLATFORMS.find((entry) => entry.key === key);
  if (!found) throw new TypeError(`Unknown platform "${key}": use one of ${PLATFORMS.map((p) => p.key)}`);
  return found;
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
}

function platformManifest(entry: Platform): Record<string, unknown> {
  return {
    name: npmPackageName(entry),
    version: VERSION,
    description: `The Reasonix binary for ${entry.key}; installed by the reasonix package`,
    license: "MIT",
    os: [entry.os],
    cpu: [entry.cpu],
    files: [`bin/${entry.binary}`, "LICENSE", "README.md"],
    preferUnplugged: true,
  };
}

async function writePlatform(entry: Platform, options: BuildNpmOptions): Promise<string> {
  const binary = join(options.distDir, entry.target, entry.binary);
  await Deno.stat(binary).catch(() => {
    throw new Error(`Cannot build ${npmPackageName(entry)}: ${binary} is missing (run deno task compile)`);
  });
  const dir = join(options.outDir, "packages", `cli-${entry.key}`);
  await Deno.mkdir(join(dir, "bin"), { recursive: true });
  await Deno.copyFile(binary, join(dir, "bin", entry.binary));
  await Deno.chmod(join(dir, "bin", entry.binary), 0o755);
  await Deno.copyFile(options.licenseFile, join(dir, "LICENSE"));
  await Deno.writeTextFile(
    join(dir, "README.md"),
    `# ${npmPackageName(entry)}\n\nThe Reasonix ${VERSION} binary for ${entry.key}. ` +
      "Install `reasonix` instead: it picks this package on this platform.\n",
  );
  await writeJson(join(dir, "package.json"), platformManifest(entry));
  return dir;
}

async function writeLauncher(options: BuildNpmOptions): Promise<string> {
  const dir = join(options.outDir, "packages", "reasonix");
  await Deno.mkdir(join(dir, "bin"), { recursive: true });
  const manifest = JSON.parse(await Deno.readTextFile(join(LAUNCHER, "package.json")));
  manifest.version = VERSION;
  manifest.optionalDependencies = Object.fromEntries(
    [...PLATFORMS].map(npmPackageName).sort().map((name) => [name, VERSION]),
  );
  await writeJson(join(dir, "package.json"), manifest);
  await Deno.copyFile(join(LAUNCHER, "bin", "reasonix.js"), join(dir, "bin", "reasonix.js"));
  await Deno.chmod(join(dir, "bin", "reasonix.js"), 0o755);
  await Deno.copyFile(join(LAUNCHER, "README.md"), join(dir, "README.md"));
  await Deno.copyFile(options.licenseFile, join(dir, "LICENSE"));
  return dir;
}

async function npmPack(dir: string, outDir: string): Promise<string> {
  const run = await new Deno.Command("npm", {
    args: ["pack", "--json", "--pack-destination", outDir],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!run.success) throw new Error(`npm pack failed in ${dir}: ${new TextDecoder().decode(run.stderr)}`);
  const [packed] = JSON.parse(new TextDecoder().decode(run.stdout)) as { filename: string }[];
  return join(outDir, basename(packed!.filename));
}

export async function buildNpm(options: BuildNpmOptions): Promise<BuiltPackage[]> {
  await Deno.stat(options.licenseFile).catch(() => {
    throw new Error(`Cannot build the npm packages: ${options.licenseFile} is missing`);
  });
  await Deno.remove(join(options.outDir, "packages"), { recursive: true }).catch(() => {});
  await Deno.mkdir(options.outDir, { recursive: true });
  const built: BuiltPackage[] = [];
  for (const entry of options.platforms) {
    const dir = await writePlatform(entry, options);
    built.push({ name: npmPackageName(entry), dir, tarball: await npmPack(dir, options.outDir) });
  }
  const dir = await writeLauncher(options);
  built.push({ name: "reasonix", dir, tarball: await npmPack(dir, options.outDir) });
  return built;
}

if (import.meta.main) {
  try {
    for (const built of await buildNpm(parseArgs(Deno.args))) {
      console.log(`${built.name} -> ${built.tarball}`);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
