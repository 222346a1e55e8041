/**
 * The editor's terminal behind the session's sandbox (src/sandbox/editor_terminal.ts), through the real
 * setupSandbox: only the `none` sandbox hands commands to it; bubblewrap and a refusing sandbox never do.
 * The terminal here starts real processes from an "editor" environment, as an ACP client's would.
 */
import assert from "node:assert/strict";
import { builtinConfig } from "../../src/config/builtin.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import type { ResolvedConfig } from "../../src/config/types.ts";
import { setupSandbox } from "../../src/control/sandbox_setup.ts";
import type { EditorTerminal, TerminalRequest } from "../../src/sandbox/editor_terminal.ts";
import type { RunOptions } from "../../src/sandbox/sandbox.ts";
import { BWRAP_MISSING, visibleTempDir } from "./_bwrap.ts";

const EDITOR_ENV = {
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  EDITOR_ONLY: "ghp_editor0123456789abcdefghijkl",
};
const HOST_ENV = { PATH: EDITOR_ENV.PATH, DEEPSEEK_API_KEY: "sk-provider", VISIBLE: "kept" };

class ProcessTerminal implements EditorTerminal {
  readonly requests: TerminalRequest[] = [];
  readonly calls: string[] = [];

  create(request: TerminalRequest) {
    this.requests.push(request);
    this.calls.push("create");
    const child = new Deno.Command(request.command, {
      args: request.args,
      cwd: request.cwd,
      env: { ...EDITOR_ENV, ...request.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    let output = "";
    const done = child.stdout.pipeThrough(new TextDecoderStream())
      .pipeTo(new WritableStream({ write: (chunk) => void (output += chunk) }))
      .then(() => child.status);
    const calls = this.calls;
    return Promise.resolve({
      waitForExit: async () => {
        const status = await done;
        return { exitCode: status.signal ? null : status.code, signal: status.signal };
      },
      output: () => Promise.resolve({ output, truncated: false }),
      kill: () => {
        calls.push("kill");
        child.kill("SIGKILL");
        return Promise.resolve();
      },
      release: async () => {
        calls.push("release");
        await done;
      },
    });
  }
}

async function fixture(sandbox: Partial<ResolvedConfig["sandbox"]>) {
  const home = await visibleTempDir("reasonix-term-home-");
  const ws = await visibleTempDir("reasonix-term-ws-");
  const paths = resolvePaths({ REASONIX_HOME: home });
  const config = builtinConfig();
  Object.assign(config.sandbox, sandbox);
  const terminal = new ProcessTerminal();
  const workspace = { root: ws, extraWritable: [], forbidRead: [paths.envFile] };
  return {
    ws,
    terminal,
    setup: (probe?: () => Promise<{ ok: false; reason: string }>) =>
      setupSandbox({ config, paths, env: HOST_ENV, workspace, terminal, ...(probe ? { probe } : {}) }),
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true });
      await Deno.remove(ws, { recursive: true });
    },
  };
}

function run(ws: string, more: Partial<RunOptions> = {}): RunOptions {
  return {
    cwd: ws,
    signal: new AbortController().signal,
    timeoutMs: 10_000,
    maxOutputBytes: 16_000,
    ...more,
  };
}

Deno.test({
  name: "editor terminal: a bubblewrap session never hands a command to the editor",
  ignore: BWRAP_MISSING,
  async fn() {
    await using fx = await fixture({});
    const { sandbox, tempDir } = await fx.setup();
    assert.equal(sandbox.name, "bubblewrap");
    const result = await sandbox.runShell(
      "echo inside; touch /usr/reasonix-probe",
      run(fx.ws, { callId: "c1" }),
    );
    assert.match(result.output, /^inside$/m);
    assert.match(result.output, /Read-only file system/);
    assert.deepEqual(fx.terminal.calls, []);
    await tempDir.remove();
  },
});

Deno.test("editor terminal: a refusing sandbox (require = true, no OS sandbox) never hands a command over", async () => {
  await using fx = await fixture({ require: true });
  const { sandbox, tempDir } = await fx.setup(() => Promise.resolve({ ok: false, reason: "no bwrap here" }));
  assert.equal(sandbox.name, "refused");
  await assert.rejects(() => sandbox.runShell("echo ran", run(fx.ws)), /require = true/);
  assert.deepEqual(fx.terminal.calls, []);
  await tempDir.remove();
});

Deno.test("editor terminal: with bash = false the editor runs it, in the session's environment only", async () => {
  await using fx = await fixture({ bash: false });
  const { sandbox, tempDir } = await fx.setup();
  const result = await sandbox.runShell('env; echo "pwd=$PWD"; exit 4', run(fx.ws, { callId: "call_1" }));
  assert.deepEqual(fx.terminal.calls, ["create", "release"]);
  assert.equal(fx.terminal.requests[0]!.callId, "call_1");
  assert.equal(fx.terminal.requests[0]!.cwd, fx.ws);
  assert.equal(result.exitCode, 4);
  assert.doesNotMatch(result.output, /EDITOR_ONLY|ghp_editor|sk-provider|REASONIX_KEEP_ENV/);
  assert.match(result.output, /^VISIBLE=kept$/m);
  assert.match(result.output, new RegExp(`^TMPDIR=${tempDir.path}$`, "m"));
  assert.match(result.output, new RegExp(`^pwd=${fx.ws}$`, "m"));
  await tempDir.remove();
});

Deno.test("editor terminal: a timeout or an interrupt kills the editor's command; long output keeps its tail", async () => {
  await using fx = await fixture({ bash: false });
  const { sandbox, tempDir } = await fx.setup();
  const slow = await sandbox.runShell("echo started; sleep 30", run(fx.ws, { timeoutMs: 300 }));
  assert.equal(slow.timedOut, true);
  assert.match(slow.output, /started/);
  assert.deepEqual(fx.terminal.calls, ["create", "kill", "release"]);
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 200);
  const stopped = await sandbox.runShell("sleep 30", run(fx.ws, { signal: abort.signal }));
  assert.equal(stopped.aborted, true);
  const long = await sandbox.runShell("seq 1 20000", run(fx.ws, { maxOutputBytes: 1000 }));
  assert.ok(long.droppedBytes > 0);
  assert.match(long.output, /^\[\.\.\. earlier output omitted \.\.\.\]\n/);
  assert.match(long.output, /\n20000\n$/);
  await tempDir.remove();
});

Deno.test("editor terminal: an interrupt that lands while the editor starts the terminal still kills it", async () => {
  await using fx = await fixture({ bash: false });
  const { sandbox, tempDir } = await fx.setup();
  const abort = new AbortController();
  const create = fx.terminal.create.bind(fx.terminal);
  fx.terminal.create = async (request) => {
    const started = await create(request);
    abort.abort();
    return started;
  };
  const began = Date.now();
  const stopped = await sandbox.runShell("sleep 30", run(fx.ws, { signal: abort.signal }));
  assert.equal(stopped.aborted, true);
  assert.ok(Date.now() - began < 10_000, "the command did not run to its end");
  assert.deepEqual(fx.terminal.calls, ["create", "kill", "release"]);
  await tempDir.remove();
});
