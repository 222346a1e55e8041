/**
 * @module
 * Which program invocations check work rather than do it or only look: test runners, builds, type
 * checkers and linters across ecosystems, package and task-runner scripts named like a check, and the
 * runners that start them (`npx`, `uv run`, `bundle exec`…). Pure: one argv in, a yes or no out.
 */

type Rule = (args: readonly string[]) => boolean;

/** Words a script, task or target is named with when it checks: `test:unit`, `typecheck`, `ci.sh`. */
const CHECK_WORDS = new Set([
  "test",
  "tests",
  "testing",
  "unittest",
  "unittests",
  "runtests",
  "spec",
  "specs",
  "e2e",
  "check",
  "checks",
  "typecheck",
  "lint",
  "lints",
  "linter",
  "build",
  "verify",
  "validate",
  "ci",
]);

/** A script, task or target name made of a check word (`test:unit`, `check_types`, `typeCheck`, `ci.sh`). */
export function namedLikeCheck(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/);
  return words.some((word) => CHECK_WORDS.has(word));
}

function always(): boolean {
  return true;
}

function subcommand(...names: string[]): Rule {
  return (args) => names.includes(positional(args)[0] ?? "");
}

function withFlag(...flags: string[]): Rule {
  return (args) => args.some((arg) => flags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
}

function either(...rules: Rule[]): Rule {
  return (args) => rules.some((rule) => rule(args));
}

/** Arguments that are not options (`-x`, `--long`); option values are kept, which is safe for a first word. */
function positional(args: readonly string[]): string[] {
  return args.filter((arg) => !arg.startsWith("-"));
}

/** Skips leading options (and the values of `valued` ones) and returns the rest. */
function afterOptions(args: readonly string[], valued: readonly string[] = []): string[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += valued.includes(args[i]!) ? 2 : 1;
  return args.slice(i);
}

const PYTHON_MODULES = new Set([
  "pytest",
  "unittest",
  "mypy",
  "pyright",
  "flake8",
  "pylint",
  "pyflakes",
  "nose2",
  "tox",
  "nox",
  "compileall",
  "py_compile",
  "doctest",
]);

/** `python -m pytest`, `python -m ruff check`, `python manage.py test`, `python scripts/run_tests.py`. */
function python(args: readonly string[]): boolean {
  const module = args.indexOf("-m");
  if (module !== -1) {
    const [name = "", ...rest] = args.slice(module + 1);
    return PYTHON_MODULES.has(name) || runsCheck([name, ...rest]);
  }
  if (args.includes("-c")) return false;
  return interpreted(args);
}

/** An interpreter running a script: the script, or its first argument, is named like a check. */
function interpreted(args: readonly string[]): boolean {
  const [script, next] = positional(args);
  return script !== undefined && (namedLikeCheck(baseName(script)) || namedLikeCheck(next ?? ""));
}

const NPM_VALUED = ["--prefix", "-w", "--workspace"];

/** `npm test`, `npm run test:unit`, `npm exec vitest`; `npm ci` installs. */
function npm(args: readonly string[]): boolean {
  const [command = "", ...rest] = afterOptions(args, NPM_VALUED);
  if (["test", "t", "tst"].includes(command)) return true;
  if (command === "run" || command === "run-script") {
    return namedLikeCheck(afterOptions(rest, NPM_VALUED)[0] ?? "");
  }
  if (command === "exec" || command === "x") return npx(rest);
  return false;
}

const RUNNER_VALUED = ["--filter", "-F", "-C", "--dir", "--cwd", "--filter-prod"];

/** pnpm, yarn and bun run a script or a package binary by its bare name too (`pnpm lint`, `yarn jest`). */
function packageRunner(args: readonly string[]): boolean {
  let rest = afterOptions(args, RUNNER_VALUED);
  if (rest[0] === "workspace") rest = rest.slice(2);
  const [command = "", ...more] = rest;
  if (["install", "add", "i", "ci", "remove", "update", "upgrade", "create", "init"].includes(command)) {
    return false;
  }
  if (command === "run" || command === "run-script") {
    return namedLikeCheck(afterOptions(more, RUNNER_VALUED)[0] ?? "");
  }
  if (["exec", "dlx", "x"].includes(command)) return npx(more);
  return namedLikeCheck(command) || runsCheck(rest);
}

/** `npx vitest run`, `npx --yes tsc --noEmit`, `bunx eslint .`. */
function npx(args: readonly string[]): boolean {
  const rest = afterOptions(args, ["-p", "--package", "-c", "--call"]);
  return rest.length > 0 && runsCheck(rest);
}

/** A runner that starts another program in the project's environment (`uv run pytest`, `bundle exec rspec`). */
function runner(verb: string, valued: readonly string[] = []): Rule {
  return (args) => {
    const rest = afterOptions(args, valued);
    return rest[0] === verb && runsCheck(afterOptions(rest.slice(1), valued));
  };
}

/** `make`, `make test`, `make -C app check`: the default target builds; named ones must be checks. */
function make(args: readonly string[]): boolean {
  const targets = afterTargetsOptions(args, ["-C", "-f", "--file", "--directory", "-j", "-l", "-o", "-W"]);
  return targets.length === 0 || targets.some((target) => target === "all" || namedLikeCheck(target));
}

function afterTargetsOptions(args: readonly string[], valued: readonly string[]): string[] {
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (valued.includes(arg)) i++;
    else if (!arg.startsWith("-") && !arg.includes("=")) targets.push(arg);
  }
  return targets;
}

/** A task runner whose named targets must be checks (`just lint`, `task test`, `rake spec`). */
function namedTarget(args: readonly string[]): boolean {
  return afterTargetsOptions(args, ["-f", "--justfile", "-d", "--dir", "-t", "--taskfile"]).some(
    namedLikeCheck,
  );
}

function deno(args: readonly string[]): boolean {
  const [command = "", ...rest] = args;
  if (["test", "check", "lint"].includes(command)) return true;
  if (command === "fmt") return rest.includes("--check");
  if (command === "task") {
    return namedLikeCheck(afterOptions(rest, ["--cwd", "-c", "--config", "-f", "--filter"])[0] ?? "");
  }
  if (command === "run") return interpreted(rest);
  return false;
}

const MAVEN_GOALS =
  /^(test|test-compile|compile|verify|package|install|integration-test)$|:(test|verify|check)$/;

const PROGRAMS: Readonly<Record<string, Rule>> = {
  deno,
  npm,
  pnpm: packageRunner,
  yarn: packageRunner,
  bun: either(subcommand("test", "build"), packageRunner),
  npx,
  bunx: npx,
  node: either(withFlag("--test", "--check"), interpreted),
  tsc: always,
  vitest: always,
  jest: always,
  mocha: always,
  ava: always,
  tap: always,
  karma: always,
  cypress: subcommand("run"),
  playwright: subcommand("test"),
  eslint: always,
  oxlint: always,
  stylelint: always,
  prettier: withFlag("--check", "--list-different", "-c", "-l"),
  biome: subcommand("check", "lint", "ci", "format"),
  pytest: always,
  "py.test": always,
  mypy: always,
  pyright: always,
  flake8: always,
  pylint: always,
  pyflakes: always,
  tox: always,
  nox: always,
  ruff: either(subcommand("check"), (args) => positional(args)[0] === "format" && args.includes("--check")),
  black: withFlag("--check"),
  isort: withFlag("--check", "--check-only"),
  python,
  python3: python,
  py: python,
  uv: runner("run", ["--with", "--python", "-p", "--extra", "--group", "--package", "--directory"]),
  poetry: runner("run"),
  pipenv: runner("run"),
  pdm: runner("run"),
  hatch: either(subcommand("test"), runner("run")),
  rye: either(subcommand("test", "lint"), runner("run")),
  go: subcommand("test", "vet", "build"),
  "golangci-lint": always,
  staticcheck: always,
  cargo: either(
    subcommand("test", "t", "check", "c", "clippy", "build", "b", "nextest", "miri"),
    (args) => positional(args)[0] === "fmt" && args.includes("--check"),
  ),
  mvn: (args) => positional(args).some((goal) => MAVEN_GOALS.test(goal)),
  mvnw: (args) => positional(args).some((goal) => MAVEN_GOALS.test(goal)),
  gradle: (args) =>
    positional(args).some((task) => namedLikeCheck(task) || /^(assemble|compile)/i.test(task)),
  gradlew: (args) =>
    positional(args).some((task) => namedLikeCheck(task) || /^(assemble|compile)/i.test(task)),
  dotnet: either(subcommand("test", "build"), (args) => args.includes("--verify-no-changes")),
  rspec: always,
  rubocop: always,
  rake: namedTarget,
  bundle: runner("exec"),
  ruby: interpreted,
  phpunit: always,
  phpstan: always,
  psalm: always,
  pest: always,
  composer: (args) => {
    const [command = "", script = ""] = positional(args);
    return namedLikeCheck(command) ||
      (command === "run-script" || command === "run") && namedLikeCheck(script);
  },
  php: interpreted,
  make,
  gmake: make,
  just: namedTarget,
  task: namedTarget,
  ninja: make,
  ctest: always,
  cmake: withFlag("--build"),
  meson: subcommand("test", "compile"),
  bazel: subcommand("test", "build"),
  bazelisk: subcommand("test", "build"),
  mix: either(subcommand("test", "compile", "credo", "dialyzer"), withFlag("--check-formatted")),
  swift: subcommand("test", "build"),
  zig: subcommand("build", "test"),
  cabal: subcommand("test", "build"),
  stack: subcommand("test", "build"),
  dart: subcommand("test", "analyze"),
  flutter: subcommand("test", "analyze"),
  shellcheck: always,
  bats: always,
  hadolint: always,
  yamllint: always,
  actionlint: always,
  markdownlint: always,
  "markdownlint-cli2": always,
  tflint: always,
  terraform: subcommand("validate"),
  "pre-commit": subcommand("run"),
};

/** The last path segment: `./node_modules/.bin/jest` runs jest, `./gradlew` the Gradle wrapper. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The program runs a check: `argv[0]` is the program (by name or path), the rest its arguments. */
export function runsCheck(argv: readonly string[]): boolean {
  const [program, ...args] = argv;
  if (program === undefined) return false;
  const name = baseName(program).replace(/\.(exe|cmd|bat)$/, "");
  const rule = Object.hasOwn(PROGRAMS, name)
    ? PROGRAMS[name]
    : /^python3(\.\d+)?$/.test(name)
    ? python
    : undefined;
  return rule !== undefined && rule(args);
}
