/**
 * @module
 * `[sandbox] require = true` without a working OS sandbox: shell commands are refused with the reason.
 * The app's own fixed helpers (`rg`, `git rev-parse`) still run directly through `runArgv`.
 */
import { ReasonixError } from "../lib/errors.ts";
import { DirectSandbox } from "./none.ts";
import type { RunOptions, RunResult, Sandbox, SpawnedProcess } from "./sandbox.ts";

export class RefusingSandbox implements Sandbox {
  readonly name = "refused";
  readonly #reason: string;
  readonly #direct = new DirectSandbox();

  constructor(reason: string) {
    this.#reason = reason;
  }

  runShell(): Promise<RunResult> {
    return Promise.reject(this.#refusal());
  }

  runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    return this.#direct.runArgv(argv, options);
  }

  spawnShell(): SpawnedProcess {
    throw this.#refusal();
  }

  #refusal(): ReasonixError {
    return new ReasonixError(
      "sandbox.unavailable",
      `Cannot run shell commands: ${this.#reason}, and [sandbox] require = true forbids running them unsandboxed`,
    );
  }
}
