import assert from "node:assert/strict";
import { commandVerifies, type VerifierOptions } from "../../../src/control/delivery/verifier.ts";
import { namedLikeCheck } from "../../../src/control/delivery/check_programs.ts";

const OPTIONS: VerifierOptions = { root: "/work/project", verifyCommands: [] };

async function misjudged(
  commands: readonly string[],
  expected: boolean,
  options = OPTIONS,
): Promise<string[]> {
  const wrong: string[] = [];
  for (const command of commands) {
    if (await commandVerifies(command, options) !== expected) wrong.push(command);
  }
  return wrong;
}

Deno.test("commandVerifies() counts test runners, builds, type checkers and linters across ecosystems", async () => {
  const checks = [
    "deno test",
    "deno test -A tests/a_test.ts",
    "deno check main.ts",
    "deno lint",
    "deno fmt --check",
    "deno task check",
    "deno task test:unit",
    "deno task --cwd web check",
    "npm test",
    "npm t",
    "npm run test:unit",
    "npm run build",
    "npm run typecheck",
    "npm --prefix web run lint",
    "npm run --workspace api test",
    "pnpm test",
    "pnpm lint",
    "pnpm -r run build",
    "pnpm --filter app test",
    "yarn test",
    "yarn jest --ci",
    "yarn workspace api test",
    "bun test",
    "bun run check",
    "npx vitest run",
    "npx --yes tsc --noEmit",
    "npx jest src",
    "npx mocha",
    "bunx eslint .",
    "./node_modules/.bin/jest",
    "tsc --noEmit",
    "eslint src",
    "prettier --check .",
    "biome check .",
    "node --test",
    "pytest -q",
    "python -m pytest tests",
    "python3 -m unittest discover",
    "python3.12 -m mypy src",
    "python manage.py test",
    "uv run pytest",
    "poetry run mypy .",
    "ruff check .",
    "ruff format --check",
    "mypy .",
    "pyright",
    "flake8",
    "black --check .",
    "tox -e py312",
    "go test ./...",
    "go vet ./...",
    "go build ./...",
    "golangci-lint run",
    "cargo test",
    "cargo check",
    "cargo clippy -- -D warnings",
    "cargo build --release",
    "cargo fmt --check",
    "mvn test",
    "mvn -q verify",
    "./mvnw package",
    "gradle test",
    "./gradlew build",
    "./gradlew :app:check",
    "dotnet test",
    "dotnet build",
    "rspec",
    "bundle exec rspec spec/a_spec.rb",
    "bundle exec rubocop",
    "rake test",
    "phpunit",
    "vendor/bin/phpunit",
    "composer test",
    "php artisan test",
    "ctest --output-on-failure",
    "cmake --build build",
    "make",
    "make test",
    "make -C app check",
    "make -j4 lint",
    "just test",
    "just verify",
    "mix test",
    "swift test",
    "shellcheck scripts/*.sh",
    "./scripts/test.sh",
    "scripts/check.sh --fast",
    "bin/check",
    "./ci.sh",
    "sh scripts/run_tests.sh",
    "bash ./check.sh",
  ];
  assert.deepEqual(await misjudged(checks, true), []);
});

Deno.test("commandVerifies() sees through cd, env assignments, timeouts, redirections and chains", async () => {
  const checks = [
    "cd app && npm test",
    "cd app && ./scripts/test.sh",
    "CI=1 npm test",
    "env CI=1 NODE_ENV=test npm test",
    "timeout 60 deno test -A",
    "timeout -s KILL 120 cargo test",
    "nice -n 10 go test ./...",
    "deno fmt && deno lint && deno test",
    "git status; deno test",
    "echo starting\npytest -x",
    "(cd web && npm run build)",
    "npm test > test.log",
  ];
  assert.deepEqual(await misjudged(checks, true), []);
});

Deno.test("commandVerifies() does not count commands that only print or inspect", async () => {
  const others = [
    "echo ok",
    "echo done",
    "echo npm test",
    "printf 'tests pass\\n'",
    "true",
    ":",
    "ls -la",
    "cat test.txt",
    "head -5 tests/a_test.ts",
    "tail -f log",
    "grep -q beta a.txt",
    "grep -rn test src",
    "rg check",
    "find . -name '*_test.ts'",
    "git status",
    "git diff --check",
    "git log -3",
    "git show HEAD",
    "pwd",
    "which pytest",
    "wc -l src/a.ts",
    "test -f a.txt",
    "[ -f a.txt ]",
    "cd app && ls",
    "npm install",
    "npm ci",
    "npm run dev",
    "npm run --workspace test dev",
    "npm start",
    "pnpm install",
    "yarn",
    "deno task",
    "deno task dev",
    "deno fmt",
    "deno run main.ts",
    "python -c 'print(1)'",
    "python script.py",
    "go run .",
    "cargo run",
    "make clean",
    "make install",
    "just",
    "ruff format .",
    "black .",
    "./scripts/deploy.sh",
    "/tmp/test.sh",
    "../other/test.sh",
    "cd /tmp && ./test.sh",
    "bash -c 'echo test'",
    "sh -c 'npm test'",
    "echo $(npm test)",
    "npm test || true",
    "npm test 2>&1 | tail -20",
    "deno test; echo done",
    "pytest -x\necho finished",
    "npm test || echo failed",
    "! npm test",
    "if npm test; then echo ok; fi",
    "true || npm test",
    "if false; then npm test; fi",
    "while false; do npm test; done",
    "for f in a; do npm test; done",
    "t() { npm test; }",
    "npm test &",
    "case x in x) npm test;; esac",
    "latest",
    "echo 'unbalanced",
  ];
  assert.deepEqual(await misjudged(others, false), []);
});

Deno.test("commandVerifies() counts a user's verify_commands prefixes, word by word", async () => {
  const options = { ...OPTIONS, verifyCommands: ["bazel-run-checks", "  ./tools/qa  smoke ", "make e2e"] };
  assert.deepEqual(
    await misjudged(
      ["bazel-run-checks --all", "./tools/qa smoke -v", "make e2e", "CI=1 timeout 9 make e2e"],
      true,
      options,
    ),
    [],
  );
  assert.deepEqual(
    await misjudged(["bazel-run-checks-old", "./tools/qa", "make e2e-full || true"], false, options),
    [],
  );
  assert.equal(await commandVerifies("bazel-run-checks", OPTIONS), false, "not without the setting");
});

Deno.test("namedLikeCheck() reads script, task and target names by their words", () => {
  for (
    const name of [
      "test",
      "test:unit",
      "unit-tests",
      "check_types",
      "typeCheck",
      "typecheck",
      "ci",
      "ci.sh",
      "lint:fix",
    ]
  ) {
    assert.ok(namedLikeCheck(name), name);
  }
  for (const name of ["latest", "dev", "start", "deploy", "circle", "specific", "contest.sh", ""]) {
    assert.ok(!namedLikeCheck(name), name);
  }
});
